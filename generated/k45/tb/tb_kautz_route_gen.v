// Testbench of kautz_route_gen: route generator of K(4,5): 1000 sampled pairs (seed 1) and 6 invalid vectors: 1006 vectors.
// Rendered by kautzgen from testbenches/sequence.v.tera; self-checking. It reads
// vectors.txt, one vector a line: the data inputs in hexadecimal (src, dst), then
// "<delay> <nudge> <lead> <reset>", then the lead-in's data inputs, then what the golden
// model answers: "<error> <count>" and count items (route, route_len) in hexadecimal. It
// checks each item, its order and how it is held, done and error, the outputs after rst
// and the cycles of work against the bound; prints the first 10 failing vectors
// and "N passed, M failed", and ends with $fatal when a vector failed or none was read.
// The cycle count: docs/sequence-units.md.
module tb_kautz_route_gen;
  // Cycles of work after which a vector is recorded as a timeout instead of waited for:
  // eight times the bound of 24.
  localparam integer TIMEOUT = 192;
  // Cycles after done rises in which done, error and route_valid must keep their values.
  localparam integer AFTER_DONE = 2;
  localparam integer BOUND = 24;
  localparam integer SHOWN = 10;
  // Items after which a vector counts as never done: one more than any answer holds, so
  // that a design that never stops giving items cannot hang the simulation.
  localparam integer MAX_ITEMS = 5;

  reg clk = 1'b0;
  reg rst = 1'b1;
  reg tb_start = 1'b0;
  reg tb_next = 1'b0;
  reg [14:0] in_0 = 15'd0;  // src
  reg [14:0] text_0;
  reg [14:0] lead_0;
  reg [14:0] in_1 = 15'd0;  // dst
  reg [14:0] text_1;
  reg [14:0] lead_1;
  wire tb_valid;
  wire tb_done;
  wire tb_error;
  wire [20:0] item_0;  // route
  reg [20:0] held_0;
  reg [20:0] read_0;
  reg [20:0] want_0 [0:MAX_ITEMS-1];
  reg [20:0] got_0 [0:MAX_ITEMS-1];
  wire [2:0] item_1;  // route_len
  reg [2:0] held_1;
  reg [2:0] read_1;
  reg [2:0] want_1 [0:MAX_ITEMS-1];
  reg [2:0] got_1 [0:MAX_ITEMS-1];

  kautz_route_gen dut (
    .clk(clk),
    .rst(rst),
    .init(tb_start),
    .next_route(tb_next),
    .src(in_0),
    .dst(in_1),
    .route_valid(tb_valid),
    .route(item_0),
    .route_len(item_1),
    .done(tb_done),
    .error(tb_error)
  );

  initial forever #5 clk = ~clk;

  integer vectors_file;
  integer got_count;
  integer want_error;
  integer want_count;
  reg got_held [0:MAX_ITEMS-1];
  reg got_alone [0:MAX_ITEMS-1];
  reg reset_low;
  reg timed_out;
  reg bad;
  reg first;
  integer wrong;
  integer passed;
  integer failed;
  // Cycles of work of the sequences the golden model accepts that reached done.
  integer sequences;
  integer total_cycles;
  integer max_cycles;
  integer fields;
  integer index;
  integer delay;
  integer nudge;
  integer lead;
  integer reset;
  integer cycles;
  integer i;
  reg held;
  reg alone;
  reg steady;
  reg error_at_done;
  reg finished;

  // Inputs change and outputs are sampled at falling edges, half a cycle away from the
  // rising edges on which the unit samples its inputs.
  task step;
    begin
      @(negedge clk);
    end
  endtask
  // The first item, from 0, that differs from the golden model's; -1 when none does.
  function integer first_wrong;
    input integer count;
    integer j;
    begin
      first_wrong = -1;
      for (j = count - 1; j >= 0; j = j - 1)
        if (got_0[j] !== want_0[j] || got_1[j] !== want_1[j]) first_wrong = j;
    end
  endfunction

  // Writes item j of the golden model's answer (wanted) or of the design's (else) after a
  // space, as kautzgen verify writes it: its fields in brackets or, when they
  // decode to nothing, its ports in hexadecimal.
  task show_item;
    input wanted;
    input integer j;
    reg [20:0] v_0;
    reg [2:0] v_1;
    reg [20:0] shifted;
    reg [2:0] field;
    reg ok;
    integer f;
    begin
      v_0 = wanted ? want_0[j] : got_0[j];
      v_1 = wanted ? want_1[j] : got_1[j];
      ok = v_1 <= 7;
      if (ok) begin
        $write(" [");
        for (f = 0; f < v_1; f = f + 1) begin
          shifted = v_0 >> ((7 - 1 - f) * 3);
          field = shifted[2:0];
          $write("%0d", field);
        end
        $write("]");
      end else begin
        $write(" [route=%h route_len=%h]", v_0, v_1);
      end
    end
  endtask

  // Judges the vector just run as kautzgen verify does, and prints it when it fails and
  // fewer than SHOWN have been printed.
  task judge;
    integer j;
    begin
      wrong = first_wrong(got_count < want_count ? got_count : want_count);
      if (!timed_out && want_error == 0) begin
        sequences = sequences + 1;
        total_cycles = total_cycles + cycles;
        if (cycles > max_cycles) max_cycles = cycles;
      end
      bad = wrong >= 0 || got_count != want_count || (reset != 0 && !reset_low) || timed_out;
      for (j = 0; j < got_count; j = j + 1)
        if (!got_held[j] || !got_alone[j]) bad = 1'b1;
      if (!timed_out && (error_at_done !== (want_error != 0) || !steady || cycles > BOUND)) bad = 1'b1;
      if (!bad) begin
        passed = passed + 1;
      end else begin
        failed = failed + 1;
        if (failed <= SHOWN) begin
          $write("vector %0d: ", index);
          $write("src=");
          $write("%0d", in_0[14:12]);
          $write("%0d", in_0[11:9]);
          $write("%0d", in_0[8:6]);
          $write("%0d", in_0[5:3]);
          $write("%0d", in_0[2:0]);
          $write(" dst=");
          $write("%0d", in_1[14:12]);
          $write("%0d", in_1[11:9]);
          $write("%0d", in_1[8:6]);
          $write("%0d", in_1[5:3]);
          $write("%0d", in_1[2:0]);
          if (delay > 0 || nudge != 0 || lead > 0 || reset != 0) begin
            first = 1'b1;
            $write(" (");
            if (delay > 0) begin $write("hold %0d", delay); first = 1'b0; end
            if (nudge != 0) begin if (!first) $write(", "); $write("next nudged"); first = 1'b0; end
            if (lead > 0) begin if (!first) $write(", "); $write("lead-in %0d", lead); first = 1'b0; end
            if (reset != 0) begin if (!first) $write(", "); $write("rst"); end
            $write(")");
          end
          $write("\n  expected:");
          for (j = 0; j < want_count; j = j + 1)
            show_item(1'b1, j);
          if (want_error != 0) $write(" error"); else $write(" done");
          $write("\n  got:     ");
          for (j = 0; j < got_count; j = j + 1)
            show_item(1'b0, j);
          if (timed_out) $write(" no done after %0d cycles", cycles);
          else if (error_at_done) $write(" error after %0d cycles", cycles);
          else $write(" done after %0d cycles", cycles);
          $write("\n");
          if (wrong >= 0) begin
            $write("  - item %0d is", wrong + 1);
            show_item(1'b0, wrong);
            $write(",");
            $write(" expected");
            show_item(1'b1, wrong);
            $write("\n");
          end
          if (got_count != want_count) $display("  - %0d items, expected %0d", got_count, want_count);
          for (j = 0; j < got_count; j = j + 1) begin
            if (!got_held[j]) $display("  - item %0d changed while held", j + 1);
            if (!got_alone[j]) $display("  - done or error high while item %0d was valid", j + 1);
          end
          if (reset != 0 && !reset_low) $display("  - outputs not all low after rst");
          if (timed_out) begin
            $display("  - no done after %0d cycles of work", cycles);
          end else begin
            if (error_at_done !== (want_error != 0)) $display("  - error %0d at done, expected %0d", error_at_done, want_error != 0);
            if (!steady) $display("  - done, error or valid changed after done");
            if (cycles > BOUND) $display("  - %0d cycles of work, over the bound of %0d", cycles, BOUND);
          end
        end
      end
    end
  endtask
  initial begin
    vectors_file = $fopen("vectors.txt", "r");
    if (vectors_file == 0) $fatal(1, "cannot open vectors.txt: run the testbench in the folder that holds it");
    passed = 0;
    failed = 0;
    sequences = 0;
    total_cycles = 0;
    max_cycles = 0;
    step;
    step;
    rst = 1'b0;
    index = 0;
    fields = $fscanf(vectors_file, "%h %h %d %d %d %d %h %h\n", text_0, text_1, delay, nudge, lead, reset, lead_0, lead_1);
    while (fields == 8) begin
      fields = $fscanf(vectors_file, "%d %d", want_error, want_count);
      if (fields != 2 || want_count >= MAX_ITEMS) $fatal(1, "vectors.txt: vector %0d has no answer or too many items", index);
      for (i = 0; i < want_count; i = i + 1) begin
        fields = $fscanf(vectors_file, "%h %h", read_0, read_1);
        want_0[i] = read_0;
        want_1[i] = read_1;
      end
      reset_low = 1'b1;
      timed_out = 1'b0;
      got_count = 0;
      if (lead > 0) begin
        // Another search, taking each item at once, cut short by this vector's rst or
        // init.
        in_0 = lead_0;
        in_1 = lead_1;
        tb_start = 1'b1;
        step;
        tb_start = 1'b0;
        for (i = 1; i < lead; i = i + 1) begin
          tb_next = tb_valid;
          step;
        end
        tb_next = 1'b0;
      end
      if (reset != 0) begin
        rst = 1'b1;
        step;
        rst = 1'b0;
        reset_low = !tb_valid && !tb_done && !tb_error && item_0 == 21'd0 && item_1 == 3'd0;
      end
      // Assigned here rather than by $fscanf, which does not wake the logic they feed.
      in_0 = text_0;
      in_1 = text_1;
      tb_start = 1'b1;
      step;
      tb_start = 1'b0;
      // Cycles of work: the start edge, then every edge before which route_valid was low.
      // Edges with an item valid, up to and including the one that takes it, are spent
      // waiting for next_route.
      cycles = 1;
      finished = 1'b0;
      while (!finished) begin
        if (tb_done) begin
          error_at_done = tb_error;
          steady = !tb_valid;
          for (i = 0; i < AFTER_DONE; i = i + 1) begin
            tb_next = nudge != 0;
            step;
            if (!tb_done || tb_valid || tb_error != error_at_done) steady = 1'b0;
          end
          tb_next = 1'b0;
          finished = 1'b1;
        end else if (cycles >= TIMEOUT || got_count == MAX_ITEMS) begin
          timed_out = 1'b1;
          finished = 1'b1;
        end else if (tb_valid) begin
          held_0 = item_0;
          held_1 = item_1;
          held = 1'b1;
          alone = !tb_error;
          for (i = 0; i < delay; i = i + 1) begin
            step;
            if (!tb_valid || item_0 != held_0 || item_1 != held_1) held = 1'b0;
            if (tb_done || tb_error) alone = 1'b0;
          end
          tb_next = 1'b1;
          step;
          tb_next = 1'b0;
          got_0[got_count] = held_0;
          got_1[got_count] = held_1;
          got_held[got_count] = held;
          got_alone[got_count] = alone;
          got_count = got_count + 1;
        end else begin
          // next_route while route_valid is low must be ignored.
          tb_next = nudge != 0;
          step;
          tb_next = 1'b0;
          cycles = cycles + 1;
        end
      end
      judge;
      index = index + 1;
      fields = $fscanf(vectors_file, "%h %h %d %d %d %d %h %h\n", text_0, text_1, delay, nudge, lead, reset, lead_0, lead_1);
    end
    $fclose(vectors_file);
    if (failed > SHOWN) $display("%0d more failures not shown", failed - SHOWN);
    if (sequences > 0) begin
      // The mean to one decimal, rounded half up.
      i = (20 * total_cycles + sequences) / (2 * sequences);
      $display("cycles per route set: mean %0d.%0d, max %0d (bound %0d)", i / 10, i % 10, max_cycles, BOUND);
    end
    $display("%0d passed, %0d failed", passed, failed);
    if (failed != 0 || passed == 0) $fatal(1, "tb_kautz_route_gen: %0d of %0d vectors failed", failed, passed + failed);
    $finish;
  end
endmodule
