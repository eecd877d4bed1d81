//! The board self-test top (`kautzgen board`, docs/board.md) in Verilator: the ULX3S's
//! top for K(2,3), with its one-second report shortened to 150,000 clocks, run by the C++
//! harness `board_tb.cpp`. The UART line is decoded bit by bit from `uart_tx` here, and
//! the counters it prints are checked: no corruption, every message delivered, failed or
//! in flight, and after the pause button has drained the network, exactly
//! sent = delivered + failed. With the network's `links-swapped` fault built in, the
//! checkers must report corruption and the fail LED light.

use crate::common::kautzgen;
use std::path::Path;
use std::process::Command;

const HARNESS: &str = include_str!("board_tb.cpp");

/// The ULX3S's 25 MHz over 115,200 baud, rounded: clocks per UART bit.
const BIT: u64 = 217;

/// Clocks between two report lines in these runs.
const REPORT: &str = "150000";

/// K(2,3)'s nodes: each has at most one message in flight.
const NODES: u64 = 12;

/// What the harness printed: the UART line's and the LEDs' changes, by cycle.
struct Run {
    tx: Vec<(u64, bool)>,
    /// (cycle, [pass, fail, activity]).
    leds: Vec<(u64, [bool; 3])>,
    end: u64,
}

impl Run {
    /// The UART line's level after the clock edge of `cycle`.
    fn tx_at(&self, cycle: u64) -> bool {
        let i = self.tx.partition_point(|&(c, _)| c <= cycle);
        assert!(i > 0, "uart_tx has a level from cycle 0");
        self.tx[i - 1].1
    }

    /// The LEDs after the clock edge of `cycle`.
    fn leds_at(&self, cycle: u64) -> [bool; 3] {
        let i = self.leds.partition_point(|&(c, _)| c <= cycle);
        self.leds[i - 1].1
    }

    /// The bytes on the UART, 8N1 at [`BIT`] clocks a bit, each with the cycle its start
    /// bit began; only bytes whose stop bit ended before the run did.
    fn bytes(&self) -> Vec<(u64, u8)> {
        let mut bytes = Vec::new();
        let mut from = 0;
        while let Some(&(start, _)) = self.tx.iter().find(|&&(c, level)| c >= from && !level) {
            if start + 10 * BIT > self.end {
                break;
            }
            let sample = |bit: u64| self.tx_at(start + bit * BIT + BIT / 2);
            assert!(!sample(0), "a start bit at {start} lasts half a bit");
            let byte = (0..8).fold(0u8, |b, i| b | u8::from(sample(i + 1)) << i);
            assert!(sample(9), "the byte at {start} ends with a stop bit");
            bytes.push((start, byte));
            from = start + 9 * BIT + BIT / 2;
        }
        bytes
    }

    /// The complete lines on the UART (without their `\r\n`), with the cycle each began.
    fn lines(&self) -> Vec<(u64, String)> {
        let mut lines = Vec::new();
        let mut current: Option<(u64, String)> = None;
        for (cycle, byte) in self.bytes() {
            let (_, text) = current.get_or_insert_with(|| (cycle, String::new()));
            text.push(byte as char);
            if text.ends_with("\r\n") {
                let (start, mut text) = current.take().expect("a line under way");
                text.truncate(text.len() - 2);
                lines.push((start, text));
            }
        }
        lines
    }
}

/// The four counts of a report line, which must have exactly the documented form.
fn counts(line: &str) -> [u64; 4] {
    let fields: Vec<&str> = line.split(' ').collect();
    let names = ["sent", "delivered", "failed", "corrupt"];
    assert_eq!(fields.len(), 4, "{line:?}");
    let mut counts = [0; 4];
    for (i, (field, name)) in fields.iter().zip(names).enumerate() {
        let digits = field
            .strip_prefix(&format!("{name}="))
            .unwrap_or_else(|| panic!("{line:?}: field {i} is not {name}="));
        assert_eq!(digits.len(), 8, "{line:?}");
        assert!(
            digits
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{line:?}: lower-case hex"
        );
        counts[i] = u64::from_str_radix(digits, 16).unwrap();
    }
    counts
}

/// Builds the ULX3S top of K(2,3) with `extra` options and runs it for `cycles` clocks in
/// Verilator, the pause button pressed from `pause_at`.
fn simulate(extra: &[&str], cycles: u64, pause_at: u64) -> Run {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("top");
    let dir_text = dir.to_str().unwrap();
    let mut args = vec![
        "board",
        "ulx3s",
        "--d",
        "2",
        "--k",
        "3",
        "--report-cycles",
        REPORT,
        "--no-bitstream",
        "--out",
        dir_text,
    ];
    args.extend(extra);
    let (status, _, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{stderr}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let sources: Vec<String> = manifest["verilog"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("top/{}", f.as_str().unwrap()))
        .collect();
    std::fs::write(scratch.path().join("tb.cpp"), HARNESS).unwrap();
    build(scratch.path(), &sources);
    let output = Command::new(scratch.path().join("obj/sim"))
        .args([cycles.to_string(), pause_at.to_string()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    parse(&String::from_utf8(output.stdout).unwrap())
}

/// Verilator's model of the top with the harness, in `work/obj/sim`.
fn build(work: &Path, sources: &[String]) {
    let mut command = Command::new("verilator");
    command
        .current_dir(work)
        .args([
            "--cc",
            "--exe",
            "--build",
            "-Wno-fatal",
            "--top-module",
            "kautz_selftest",
        ])
        .args([
            "-Mdir",
            "obj",
            "-o",
            "sim",
            "-MAKEFLAGS",
            "VM_PARALLEL_BUILDS=0",
        ])
        .args(sources)
        .arg("tb.cpp");
    let output = match command.output() {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!(
                "verilator is not installed: install it with `apt-get install verilator`, or run `make deps`"
            )
        }
        Err(e) => panic!("verilator: {e}"),
    };
    assert!(
        output.status.success(),
        "verilator: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn parse(text: &str) -> Run {
    let mut run = Run {
        tx: Vec::new(),
        leds: Vec::new(),
        end: 0,
    };
    for line in text.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        let number = |i: usize| words[i].parse::<u64>().unwrap();
        match words[0] {
            "tx" => run.tx.push((number(1), number(2) == 1)),
            "leds" => run
                .leds
                .push((number(1), [number(2) == 1, number(3) == 1, number(4) == 1])),
            "end" => run.end = number(1),
            _ => panic!("unexpected harness line {line:?}"),
        }
    }
    run
}

#[test]
fn the_self_test_counts_every_message_and_finds_no_corruption() {
    // Three lines: traffic, then the pause from cycle 300,000, then the drained network.
    let run = simulate(&[], 620_000, 300_000);
    let lines = run.lines();
    assert_eq!(lines.len(), 3, "{:?}", lines);
    let counts: Vec<[u64; 4]> = lines.iter().map(|(_, l)| counts(l)).collect();
    for (i, &[sent, delivered, failed, corrupt]) in counts.iter().enumerate() {
        assert_eq!(corrupt, 0, "line {i}: {:?}", lines[i]);
        let in_flight = sent - delivered - failed;
        assert!(in_flight <= NODES, "line {i}: {:?}", lines[i]);
    }
    assert!(counts[0][1] > 1000, "traffic flows: {:?}", lines[0]);
    assert!(counts[1][0] > counts[0][0] && counts[1][1] > counts[0][1]);
    // Paused and drained: every message handed over was delivered or failed, and no
    // new one started.
    let [sent, delivered, failed, _] = counts[2];
    assert_eq!(sent, delivered + failed, "{:?}", lines[2]);
    assert!(
        sent - counts[1][0] <= NODES,
        "{:?} after {:?}",
        lines[2],
        lines[1]
    );
    // The lines start a report period apart.
    let period: u64 = REPORT.parse().unwrap();
    assert_eq!(lines[1].0 - lines[0].0, period);
    assert_eq!(lines[2].0 - lines[1].0, period);
    // LEDs: pass while traffic flowed, never fail, activity bit 12 of the delivered count.
    assert!(run.leds.iter().all(|(_, [_, fail, _])| !fail));
    assert_eq!(&run.leds_at(299_999)[..2], &[true, false]);
    let [pass, _, activity] = run.leds_at(run.end - 1);
    assert!(!pass, "paused, nothing flows in the last period");
    assert_eq!(activity, delivered >> 12 & 1 == 1);
}

#[test]
fn the_checkers_catch_swapped_links() {
    let run = simulate(&["--fault", "links-swapped"], 310_000, u64::MAX);
    let lines = run.lines();
    assert_eq!(lines.len(), 1, "{:?}", lines);
    let [_, _, _, corrupt] = counts(&lines[0].1);
    assert!(corrupt > 0, "{:?}", lines[0]);
    assert_eq!(
        &run.leds_at(run.end - 1)[..2],
        &[false, true],
        "fail, not pass"
    );
}
