"""cocotb test of a unit checked row by row: a function unit vector by vector, a stream
unit cycle by cycle from reset.

Copied by kautzgen from testbenches/cocotb_rows.py into a design directory's tb/, beside
the HDL testbench rendered from testbenches/function.{v,vhd}.tera, and started by
cocotb_run.py. It reads the same vectors.txt and judges it the same way: for each line
it applies the inputs, waits the unit's latency in rising clock edges (1 ns for a
combinational unit), compares every output with the line's expected value (only the bits
of its mask when the lines carry masks), prints the first failures and
`N passed, M failed` in the HDL testbench's words, and fails when a line failed or none
was read. The ports, latency and style come from cocotb.json, which kautzgen writes from
the context it renders the HDL testbench with, one per language.
"""

import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

HERE = Path(__file__).resolve().parent


def config():
    """The HDL testbench's context in the language of the top being simulated."""
    language = os.environ["TOPLEVEL_LANG"]
    return json.loads((HERE / "cocotb.json").read_text())[language]


def hex_text(bits, width):
    """`bits` (most significant first, as cocotb prints a value) in lowercase hexadecimal,
    whole digits of `width`, 'x' for a digit with a bit that is neither 0 nor 1."""
    bits = bits.rjust(4 * ((width + 3) // 4), "0")
    digits = []
    for i in range(0, len(bits), 4):
        nibble = bits[i : i + 4]
        digits.append(format(int(nibble, 2), "x") if set(nibble) <= {"0", "1"} else "x")
    return "".join(digits)


def bits_of(value, width):
    """A number read from vectors.txt as `width` bits, most significant first."""
    return format(value & ((1 << width) - 1), f"0{width}b")


def named(ports, values):
    """Each port's name and its value (bits) in hexadecimal: `a=1 b=2f`."""
    return " ".join(f"{p['name']}={hex_text(v, p['width'])}" for p, v in zip(ports, values))


def matches(seen, wanted, care):
    """Whether the bits `seen` equal `wanted` wherever `care` has a 1; a bit that is not 0
    or 1 never equals."""
    return all(c == "0" or s == w for s, w, c in zip(seen, wanted, care))


@cocotb.test()
async def vectors(dut):
    """Every line of vectors.txt, judged as the HDL testbench judges it."""
    tb = config()
    inputs, outputs = tb["inputs"], tb["outputs"]
    latency, shown, stream = tb["latency"], tb["shown"], tb["style"] == "stream"
    handles_in = [getattr(dut, p["name"]) for p in inputs]
    handles_out = [getattr(dut, p["name"]) for p in outputs]
    reset = tb["reset"]
    if latency > 0:
        Clock(dut.clk, 10, unit="ns").start(start_high=False)
        getattr(dut, reset["name"]).value = reset["on"]
    for handle in handles_in:
        handle.value = 0
    if latency > 0:
        for _ in range(2):
            await RisingEdge(dut.clk)
        await Timer(1, unit="ns")
        getattr(dut, reset["name"]).value = reset["off"]
    passed = failed = 0
    lines = (HERE / "vectors.txt").read_text().splitlines()
    for row, line in enumerate(lines):
        fields = [int(f, 16) for f in line.split()]
        given = fields[: len(inputs)]
        wanted = fields[len(inputs) : len(inputs) + len(outputs)]
        cares = fields[len(inputs) + len(outputs) :] if tb["masked"] else []
        for handle, value in zip(handles_in, given):
            handle.value = value
        for _ in range(latency):
            await RisingEdge(dut.clk)
        await Timer(1, unit="ns")
        seen = [str(h.value) for h in handles_out]
        wrong = []
        for i, port in enumerate(outputs):
            width = port["width"]
            care = bits_of(cares[i], width) if cares else "1" * width
            if not matches(seen[i], bits_of(wanted[i], width), care):
                wrong.append(i)
        if not wrong:
            passed += 1
            continue
        failed += 1
        if failed > shown:
            continue
        wanted_bits = [bits_of(v, p["width"]) for p, v in zip(outputs, wanted)]
        if stream:
            parts = [
                f" {outputs[i]['name']} {hex_text(seen[i], outputs[i]['width'])}, "
                f"expected {hex_text(wanted_bits[i], outputs[i]['width'])}"
                for i in wrong
            ]
            print(f"after cycle {row}:" + ";".join(parts), flush=True)
        else:
            given_bits = [bits_of(v, p["width"]) for p, v in zip(inputs, given)]
            print(
                f"vector {row}: {named(inputs, given_bits)}; "
                f"expected {named(outputs, wanted_bits)}; got {named(outputs, seen)}",
                flush=True,
            )
    if failed > shown:
        print(f"{failed - shown} more failures not shown", flush=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    assert failed == 0 and passed > 0, f"{failed} of {passed + failed} {tb['noun']}s failed"
