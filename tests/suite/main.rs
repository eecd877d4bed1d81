//! kautzgen's integration tests, one module per area, built as one test binary: one link
//! instead of one per area, and one pool of test threads over every test, so that a slow
//! simulator run in one area does not leave the other core idle.
//!
//! `common` holds what the areas share: running the binary, writing a design in both
//! languages, linting and proving it.

mod common;

mod arch_parallel;
mod arch_pipelined;
mod board_selftest;
mod c_element;
mod cli_board;
mod cli_export;
mod cli_interrupt;
mod cli_kautz;
mod cli_ldi;
mod cli_mrns;
mod cli_netsim;
mod cli_outputs;
mod cli_progress;
mod cli_slurm;
mod cli_switch;
mod cli_topology;
mod cli_torus;
mod cli_units;
mod clock_rendezvous;
mod data_bits;
mod exported_cocotb;
mod exported_testbench;
mod first_page;
mod flow_model;
mod function_flow;
mod hdl_generate;
mod kautz_routes;
mod memory;
mod netsim_compare;
mod netsim_json;
mod netsim_links;
mod netsim_saturate;
mod netsim_threads;
mod network_flows;
mod network_model;
mod network_packed;
mod network_self_timed;
mod network_topologies;
mod prove_equivalence;
mod reset_styles;
mod shard_merge;
mod switch_model;
mod switch_model_registered;
mod synth_ecp5_85f;
mod synth_flow;
mod synth_fusesoc;
mod topologies;
mod torus_deadlock;
mod torus_netsim;
mod unit_ldi;
mod unit_mrns;
mod unit_network;
mod unit_network_axis;
mod unit_network_axis_cocotb;
mod unit_network_flows;
mod unit_network_topologies;
mod unit_router;
mod unit_switch;
mod unit_switch_flows;
mod unit_switch_registered;
mod unit_torus;
mod verify_icarus;
mod verify_sim;
mod verify_vectors;
