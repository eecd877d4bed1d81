//! Backends: print the hardware IR as Verilog-2005 and VHDL-2008, and write design
//! directories with their manifest.

pub mod manifest;
