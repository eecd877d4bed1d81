"""cocotb test of a unit that hands out a sequence of items per start (the route generator,
the MRNS path generator): `start` with the data inputs, `next` after each item, `done` and
`error` at the end.

Copied by kautzgen from testbenches/cocotb_sequence.py into a design directory's tb/,
beside the HDL testbench rendered from testbenches/sequence.{v,vhd}.tera, and started by
cocotb_run.py. It reads the same vectors.txt, drives each vector as the HDL testbench does
(each item held `delay` cycles, `next` nudged while it must be ignored, a lead-in search
cut short, `rst` pulsed first), judges it the same way (every item and its order, how it
is held, done and error, the outputs after rst, the cycles of work against the bound) and
prints the same lines: the first failing vectors, the cycles per sequence and
`N passed, M failed`; it fails when a vector failed or none was read. The ports, the
bound and how items read come from cocotb.json, which kautzgen writes from the context it
renders the HDL testbench with, one per language. The cycle count: docs/sequence-units.md.
"""

import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

HERE = Path(__file__).resolve().parent

# Cycles after done rises in which done, error and valid must keep their values.
AFTER_DONE = 2


def config():
    """The HDL testbench's context in the language of the top being simulated."""
    language = os.environ["TOPLEVEL_LANG"]
    return json.loads((HERE / "cocotb.json").read_text())[language]


def hex_text(bits):
    """`bits` (most significant first) in lowercase hexadecimal, whole digits, 'x' for a
    digit with a bit that is neither 0 nor 1."""
    bits = bits.rjust(4 * ((len(bits) + 3) // 4), "0")
    digits = []
    for i in range(0, len(bits), 4):
        nibble = bits[i : i + 4]
        digits.append(format(int(nibble, 2), "x") if set(nibble) <= {"0", "1"} else "x")
    return "".join(digits)


def bits_of(value, width):
    """A number as `width` bits, most significant first."""
    return format(value & ((1 << width) - 1), f"0{width}b")


def number(bits):
    """The value of `bits`, or None when a bit is neither 0 nor 1."""
    return int(bits, 2) if set(bits) <= {"0", "1"} else None


class Judge:
    """Counts and prints the vectors as the HDL testbench's `judge` task does."""

    def __init__(self, tb):
        self.tb = tb
        self.passed = self.failed = 0
        self.sequences = self.total_cycles = self.max_cycles = 0

    def item(self, values):
        """An item (its ports' bits) after a space, as kautzgen verify writes it: its
        fields in brackets or, when they decode to nothing, its ports in hexadecimal."""
        words = self.tb["words"]
        if words:
            shape = words["item"]
            route, length = number(values[0]), number(values[1])
            slots, field_bits = shape["slots"], shape["field_bits"]
            value_bits = shape["value_bits"]
            ok = route is not None and length is not None and shape["min_len"] <= length <= slots
            fields = []
            if ok:
                for f in range(slots):
                    field = (route >> ((slots - 1 - f) * field_bits)) & ((1 << field_bits) - 1)
                    move_dimension = field >> value_bits
                    if f < length and value_bits > 0 and move_dimension >= shape["dimensions"]:
                        ok = False
                    fields.append(field)
            if ok:
                mask = (1 << value_bits) - 1
                shown = [
                    f"d{field >> value_bits}={field & mask}" if value_bits > 0 else str(field)
                    for field in fields[:length]
                ]
                return " [" + shape["join"].join(shown) + "]"
        ports = " ".join(f"{p['name']}={hex_text(v)}" for p, v in zip(self.tb["items"], values))
        return f" [{ports}]"

    def inputs(self, given):
        """The data inputs of a vector as its failure names them."""
        words = self.tb["words"]
        if not words:
            return " ".join(
                f"{p['name']}={hex_text(bits_of(v, p['width']))}"
                for p, v in zip(self.tb["inputs"], given)
            )
        shown = []
        for shape, value in zip(words["inputs"], given):
            fields = [str((value >> f["lo"]) & ((1 << f["width"]) - 1)) for f in shape["fields"]]
            shown.append(shape["label"] + shape["join"].join(fields))
        return " ".join(shown)

    def vector(self, index, v):
        """Judges vector `index`, whose stimulus, answer and run `v` holds."""
        tb = self.tb
        got, want = v["got"], v["want"]
        common = min(len(got), len(want))
        wrong = next((j for j in range(common) if got[j]["values"] != want[j]), -1)
        timed_out, cycles = v["timed_out"], v["cycles"]
        want_error = v["want_error"] != 0
        if not timed_out and not want_error:
            self.sequences += 1
            self.total_cycles += cycles
            self.max_cycles = max(self.max_cycles, cycles)
        reset_failed = v["reset"] != 0 and not v["reset_low"]
        bad = wrong >= 0 or len(got) != len(want) or reset_failed or timed_out
        bad = bad or any(not g["held"] or not g["alone"] for g in got)
        error_wrong = v["error_at_done"] != ("1" if want_error else "0")
        if not timed_out and (error_wrong or not v["steady"] or cycles > tb["bound"]):
            bad = True
        if not bad:
            self.passed += 1
            return
        self.failed += 1
        if self.failed > tb["shown"]:
            return
        line = f"vector {index}: {self.inputs(v['given'])}"
        how = []
        if v["delay"] > 0:
            how.append(f"hold {v['delay']}")
        if v["nudge"] != 0:
            how.append("next nudged")
        if v["lead"] > 0:
            how.append(f"lead-in {v['lead']}")
        if v["reset"] != 0:
            how.append("rst")
        if how:
            line += " (" + ", ".join(how) + ")"
        out = [line]
        expected = "".join(self.item(w) for w in want)
        out.append("  expected:" + expected + (" error" if want_error else " done"))
        if timed_out:
            end = "no done"
        elif v["error_at_done"] == "1":
            end = "error"
        else:
            end = "done"
        seen = "".join(self.item(g["values"]) for g in got)
        out.append(f"  got:     {seen} {end} after {cycles} cycles")
        if wrong >= 0:
            is_, was = self.item(got[wrong]["values"]), self.item(want[wrong])
            out.append(f"  - item {wrong + 1} is{is_}, expected{was}")
        if len(got) != len(want):
            out.append(f"  - {len(got)} items, expected {len(want)}")
        for j, g in enumerate(got):
            if not g["held"]:
                out.append(f"  - item {j + 1} changed while held")
            if not g["alone"]:
                out.append(f"  - done or error high while item {j + 1} was valid")
        if reset_failed:
            out.append("  - outputs not all low after rst")
        if timed_out:
            out.append(f"  - no done after {cycles} cycles of work")
        else:
            if error_wrong:
                seen = 1 if v["error_at_done"] == "1" else 0
                out.append(f"  - error {seen} at done, expected {int(want_error)}")
            if not v["steady"]:
                out.append("  - done, error or valid changed after done")
            if cycles > tb["bound"]:
                out.append(f"  - {cycles} cycles of work, over the bound of {tb['bound']}")
        print("\n".join(out), flush=True)

    def summary(self):
        """The lines after the last vector."""
        tb = self.tb
        if self.failed > tb["shown"]:
            print(f"{self.failed - tb['shown']} more failures not shown", flush=True)
        if self.sequences > 0:
            # The mean to one decimal, rounded half up.
            tenths = (20 * self.total_cycles + self.sequences) // (2 * self.sequences)
            print(
                f"cycles per {tb['sequence_name']}: mean {tenths // 10}.{tenths % 10}, "
                f"max {self.max_cycles} (bound {tb['bound']})",
                flush=True,
            )
        print(f"{self.passed} passed, {self.failed} failed", flush=True)


def parse(line, tb):
    """A line of vectors.txt: the stimulus and the golden model's answer."""
    fields = line.split()
    n = len(tb["inputs"])
    v = {
        "given": [int(f, 16) for f in fields[:n]],
        "delay": int(fields[n]),
        "nudge": int(fields[n + 1]),
        "lead": int(fields[n + 2]),
        "reset": int(fields[n + 3]),
        "lead_inputs": [int(f, 16) for f in fields[n + 4 : 2 * n + 4]],
        "want_error": int(fields[2 * n + 4]),
    }
    count = int(fields[2 * n + 5])
    assert count < tb["max_items"], "vectors.txt: too many items"
    items = tb["items"]
    rest = fields[2 * n + 6 :]
    v["want"] = [
        [bits_of(int(rest[i * len(items) + k], 16), p["width"]) for k, p in enumerate(items)]
        for i in range(count)
    ]
    return v


@cocotb.test()
async def vectors(dut):
    """Every vector of vectors.txt, driven and judged as the HDL testbench does."""
    tb = config()
    start, next_, valid = (getattr(dut, tb[k]) for k in ("start", "next", "valid"))
    done, error = getattr(dut, tb["done"]), getattr(dut, tb["error"])
    inputs = [getattr(dut, p["name"]) for p in tb["inputs"]]
    items = [getattr(dut, p["name"]) for p in tb["items"]]

    def high(handle):
        return str(handle.value) == "1"

    def item_values():
        return [str(h.value) for h in items]

    async def step():
        # Inputs change and outputs are sampled at falling edges, half a cycle away from
        # the rising edges on which the unit samples its inputs.
        await FallingEdge(dut.clk)

    reset = tb["reset"]
    rst = getattr(dut, reset["name"])
    rst.value = reset["on"]
    start.value = 0
    next_.value = 0
    for handle in inputs:
        handle.value = 0
    Clock(dut.clk, 10, unit="ns").start(start_high=False)
    await step()
    await step()
    rst.value = reset["off"]
    judge = Judge(tb)
    lines = [l for l in (HERE / "vectors.txt").read_text().splitlines() if l.strip()]
    for index, line in enumerate(lines):
        v = parse(line, tb)
        v["reset_low"] = True
        v["timed_out"] = False
        got = []
        if v["lead"] > 0:
            # Another search, taking each item at once, cut short by this vector's rst or
            # start.
            for handle, value in zip(inputs, v["lead_inputs"]):
                handle.value = value
            start.value = 1
            await step()
            start.value = 0
            for _ in range(1, v["lead"]):
                next_.value = 1 if high(valid) else 0
                await step()
            next_.value = 0
        if v["reset"] != 0:
            rst.value = reset["on"]
            await step()
            rst.value = reset["off"]
            v["reset_low"] = (
                str(valid.value) == "0"
                and str(done.value) == "0"
                and str(error.value) == "0"
                and all(number(b) == 0 for b in item_values())
            )
        for handle, value in zip(inputs, v["given"]):
            handle.value = value
        start.value = 1
        await step()
        start.value = 0
        # Cycles of work: the start edge, then every edge before which valid was low.
        # Edges with an item valid, up to and including the one that takes it, are spent
        # waiting for next.
        cycles = 1
        nudge = 1 if v["nudge"] != 0 else 0
        while True:
            if high(done):
                v["error_at_done"] = str(error.value)
                steady = str(valid.value) == "0"
                for _ in range(AFTER_DONE):
                    next_.value = nudge
                    await step()
                    changed = str(error.value) != v["error_at_done"]
                    if not high(done) or str(valid.value) != "0" or changed:
                        steady = False
                next_.value = 0
                v["steady"] = steady
                break
            if cycles >= tb["timeout"] or len(got) == tb["max_items"]:
                v["timed_out"] = True
                v["error_at_done"] = "0"
                v["steady"] = True
                break
            if high(valid):
                held_values = item_values()
                held = True
                alone = str(error.value) == "0"
                for _ in range(v["delay"]):
                    await step()
                    if not high(valid) or item_values() != held_values:
                        held = False
                    if high(done) or high(error):
                        alone = False
                next_.value = 1
                await step()
                next_.value = 0
                got.append({"values": held_values, "held": held, "alone": alone})
            else:
                # next while valid is low must be ignored.
                next_.value = nudge
                await step()
                next_.value = 0
                cycles += 1
        v["got"], v["cycles"] = got, cycles
        judge.vector(index, v)
    judge.summary()
    total = judge.passed + judge.failed
    assert judge.failed == 0 and judge.passed > 0, f"{judge.failed} of {total} vectors failed"
