//! Runs `kautzgen ldi ...` and checks exact standard output, standard error and exit status.
//! Expected outputs are worked by hand from definition (1) of Melhem's LDI paper
//! (docs/papers.md; link L of node n runs to (S n + L) mod M) or copied from the paper's
//! examples.

use std::process::Command;

/// (exit status, stdout, stderr) of `kautzgen ldi <args>`.
fn ldi(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .arg("ldi")
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code().expect("the binary exits"),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

fn ok(args: &[&str], stdout: &str) {
    assert_eq!(
        ldi(args),
        (0, stdout.to_string(), String::new()),
        "{args:?}"
    );
}

fn bad_input(args: &[&str], message: &str) {
    assert_eq!(
        ldi(args),
        (2, String::new(), format!("error: {message}\n")),
        "{args:?}"
    );
}

#[test]
fn theorem3_routes_of_the_ldi_18_3_example() {
    // Section 5: from 7 by link 0 or 2 to 3 or 5, link 1 to 10 or 16, link 2 to 14.
    ok(
        &[
            "routes", "--m", "18", "--s", "3", "--src", "7", "--dst", "14", "--method", "theorem3",
        ],
        "LDI(18,3) theorem3 routes 7 -> 14: 2 of 3 hops\n\
         route 0: links 0 1 2, nodes 7 3 10 14\n\
         route 1: links 2 1 2, nodes 7 5 16 14\n",
    );
}

#[test]
fn shortest_route_is_the_default_method() {
    // 7 reaches 3..5 in one hop and 9..17 in two (3 * 21 mod 18 = 9): 14 = 9 + 5, and
    // 5 = 1 * 3 + 2 gives links 1, 2 through 22 mod 18 = 4.
    ok(
        &[
            "routes", "--m", "18", "--s", "3", "--src", "7", "--dst", "14",
        ],
        "LDI(18,3) shortest routes 7 -> 14: 1 of 2 hops\nroute 0: links 1 2, nodes 7 4 14\n",
    );
}

#[test]
fn two_hop_routes_of_figure_5_as_json() {
    // LDI(12,4), 5 -> 9: 5 * 4 + 0 = 20 = 8 and 5 * 4 + 3 = 23 = 11, then link 1:
    // 33 = 9 and 45 = 9 (mod 12).
    ok(
        &[
            "routes", "--m", "12", "--s", "4", "--src", "5", "--dst", "9", "--method", "two-hop",
            "--format", "json",
        ],
        "{\"m\":12,\"s\":4,\"method\":\"two-hop\",\"src\":5,\"dst\":9,\"hops\":2,\
         \"routes\":[{\"links\":[0,1],\"nodes\":[5,8,9]},{\"links\":[3,1],\"nodes\":[5,11,9]}]}\n",
    );
}

#[test]
fn shortest_route_in_the_largest_de_bruijn_graph() {
    // LDI(2^32, 2): from 1, j hops of link 0 reach 2^j; node 0 needs all 32 of them.
    let powers: Vec<String> = (0..32).map(|j| (1u64 << j).to_string()).collect();
    let expected = format!(
        "LDI(4294967296,2) shortest routes 1 -> 0: 1 of 32 hops\nroute 0: links {}, nodes {} 0\n",
        vec!["0"; 32].join(" "),
        powers.join(" ")
    );
    ok(
        &[
            "routes",
            "--m",
            "4294967296",
            "--s",
            "2",
            "--src",
            "1",
            "--dst",
            "0",
        ],
        &expected,
    );
}

#[test]
fn switches_reproduce_the_papers_ldi_9_3_sigmas() {
    ok(
        &["switches", "--m", "9", "--s", "3"],
        "LDI(9,3) switches by paper-eq3: L = (y - n div S) mod S\n\
         switch 0: 0->0 1->3 2->6 3->2 4->5 5->8 6->1 7->4 8->7\n\
         switch 1: 0->1 1->4 2->7 3->0 4->3 5->6 6->2 7->5 8->8\n\
         switch 2: 0->2 1->5 2->8 3->1 4->4 5->7 6->0 7->3 8->6\n",
    );
}

#[test]
fn switches_of_ldi_7_2_where_eq_3_fails() {
    // gcd(7,2) = 1: switch y is link y of every node, 2n + y mod 7.
    ok(
        &["switches", "--m", "7", "--s", "2", "--format", "json"],
        "{\"m\":7,\"s\":2,\"method\":\"gcd-classes\",\
         \"formula\":\"L = (y - n div (M/gcd(M,S))) mod S\",\"switches\":[\
         {\"switch\":0,\"targets\":[0,2,4,6,1,3,5],\"links\":[0,0,0,0,0,0,0]},\
         {\"switch\":1,\"targets\":[1,3,5,0,2,4,6],\"links\":[1,1,1,1,1,1,1]}]}\n",
    );
}

#[test]
fn info_in_both_formats() {
    ok(
        &["info", "--m", "18", "--s", "3"],
        "LDI(18,3): 18 nodes, 3 links per node, 54 links\n\
         diameter: 3 (3^2 = 9 < 18 <= 27 = 3^3)\n\
         theorem 3: M = 3^2 * 2, G = 2: every pair has routes of exactly 3 hops\n\
         two-hop: no\n",
    );
    ok(
        &["info", "--m", "20", "--s", "3"],
        "LDI(20,3): 20 nodes, 3 links per node, 60 links\n\
         diameter: 3 (3^2 = 9 < 20 <= 27 = 3^3)\n\
         theorem 3: no, 20 is not a multiple of 3^2 = 9\n\
         two-hop: no\n",
    );
    ok(
        &["info", "--m", "12", "--s", "4", "--format", "json"],
        "{\"m\":12,\"s\":4,\"links\":48,\"diameter\":2,\"theorem3_g\":3,\"two_hop\":true}\n",
    );
    ok(
        &["info", "--m", "20", "--s", "3", "--format", "json"],
        "{\"m\":20,\"s\":3,\"links\":60,\"diameter\":3,\"theorem3_g\":null,\"two_hop\":false}\n",
    );
}

#[test]
fn bad_input_exits_with_2_and_one_line() {
    bad_input(
        &["info", "--m", "3", "--s", "3"],
        "LDI(M,S) needs S < M <= 4294967296 (the paper's S^(h-1) < M <= S^h with h > 1), got M = 3 and S = 3",
    );
    bad_input(
        &["switches", "--m", "9", "--s", "1"],
        "LDI(M,S) needs 2 <= S <= 65536, got S = 1",
    );
    bad_input(
        &[
            "routes", "--m", "18", "--s", "3", "--src", "18", "--dst", "1",
        ],
        "--src: node 18 is not in LDI(18,3), whose nodes are 0 to 17",
    );
    bad_input(
        &[
            "routes", "--m", "18", "--s", "3", "--src", "1", "--dst", "99",
        ],
        "--dst: node 99 is not in LDI(18,3), whose nodes are 0 to 17",
    );
    bad_input(
        &[
            "routes", "--m", "18", "--s", "3", "--src", "5", "--dst", "5",
        ],
        "--src and --dst are both node 5; a route needs two different nodes",
    );
    bad_input(
        &[
            "routes", "--m", "20", "--s", "3", "--src", "5", "--dst", "9", "--method", "theorem3",
        ],
        "theorem 3 routing needs M = S^(h-1) G with 1 < G <= S; LDI(20,3) has h = 3 and 20 is not a multiple of 3^2 = 9",
    );
    bad_input(
        &[
            "routes", "--m", "18", "--s", "3", "--src", "5", "--dst", "9", "--method", "two-hop",
        ],
        "two-hop routing needs M = S G with 1 < G <= S; LDI(18,3) has M = 18 > S^2 = 9",
    );
    bad_input(
        &["switches", "--m", "4194304", "--s", "5"],
        "LDI(4194304,5) has 20971520 links, more than the 16777216 that can be enumerated",
    );
}

#[test]
fn clap_rejects_malformed_arguments_with_2() {
    let (status, stdout, stderr) = ldi(&["routes", "--m", "18", "--s", "3", "--src", "1"]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "error: the following required arguments were not provided: --dst <DST> (see --help)\n"
    );
    let (status, _, stderr) = ldi(&[
        "routes", "--m", "-1", "--s", "3", "--src", "1", "--dst", "2",
    ]);
    assert_eq!(status, 2);
    assert_eq!(
        stderr,
        "error: unexpected argument '-1' found (see --help)\n"
    );
}

#[test]
fn help_explains_each_command_with_an_example_that_prints_what_it_says() {
    for example in [
        "info --m 18 --s 3",
        "routes --m 18 --s 3 --src 7 --dst 14 --method theorem3",
        "switches --m 9 --s 3",
    ] {
        let args: Vec<&str> = example.split(' ').collect();
        let (status, help, stderr) = ldi(&[args[0], "--help"]);
        assert_eq!((status, stderr.as_str()), (0, ""), "{example}");
        let (_, printed, _) = ldi(&args);
        let indented: String = printed.lines().map(|l| format!("  {l}\n")).collect();
        let section = format!("Example:\n  kautzgen ldi {example}\nprints\n{indented}");
        assert!(help.ends_with(&section), "{help}");
    }
}
