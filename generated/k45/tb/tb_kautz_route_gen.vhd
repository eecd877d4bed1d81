-- Testbench of kautz_route_gen: route generator of K(4,5): 1000 sampled pairs (seed 1) and 6 invalid vectors: 1006 vectors.
-- Rendered by kautzgen from testbenches/sequence.vhd.tera; self-checking. It reads
-- vectors.txt, one vector a line: the data inputs in hexadecimal (src, dst), then
-- "<delay> <nudge> <lead> <reset>", then the lead-in's data inputs, then what the golden
-- model answers: "<error> <count>" and count items (route, route_len) in hexadecimal. It
-- checks each item, its order and how it is held, done and error, the outputs after rst
-- and the cycles of work against the bound; prints the first 10 failing vectors
-- and "N passed, M failed", and finishes with status 1 when a vector failed or none was
-- read. The cycle count: docs/sequence-units.md.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use std.textio.all;

entity tb_kautz_route_gen is
end entity tb_kautz_route_gen;

architecture sim of tb_kautz_route_gen is
  -- Cycles of work after which a vector is recorded as a timeout instead of waited for:
  -- eight times the bound of 24.
  constant TIMEOUT : positive := 192;
  -- Cycles after done rises in which done, error and route_valid must keep their values.
  constant AFTER_DONE : positive := 2;
  -- Items after which a vector counts as never done: one more than any answer holds, so
  -- that a design that never stops giving items cannot hang the simulation.
  constant MAX_ITEMS : positive := 5;
  constant BOUND : positive := 24;
  constant SHOWN : natural := 10;
  type flags is array (0 to MAX_ITEMS - 1) of boolean;
  type list_0 is array (0 to MAX_ITEMS - 1) of std_logic_vector(20 downto 0);
  type list_1 is array (0 to MAX_ITEMS - 1) of std_logic_vector(2 downto 0);

  -- v in lowercase hexadecimal, whole digits, 'x' for a digit with a bit not 0 or 1.
  function hex(v : std_logic_vector) return string is
    constant digits : positive := (v'length + 3) / 4;
    constant symbols : string(1 to 16) := "0123456789abcdef";
    variable padded : std_logic_vector(4 * digits - 1 downto 0) := (others => '0');
    variable nibble : std_logic_vector(3 downto 0);
    variable text : string(1 to digits);
  begin
    padded(v'length - 1 downto 0) := v;
    for i in 0 to digits - 1 loop
      nibble := padded(4 * (digits - i) - 1 downto 4 * (digits - i) - 4);
      if is_x(nibble) then
        text(i + 1) := 'x';
      else
        text(i + 1) := symbols(to_integer(unsigned(nibble)) + 1);
      end if;
    end loop;
    return text;
  end function hex;

  signal clk : std_logic := '0';
  signal rst : std_logic := '1';
  signal tb_start : std_logic := '0';
  signal tb_next : std_logic := '0';
  signal in_0 : std_logic_vector(14 downto 0) := (others => '0');  -- src
  signal in_1 : std_logic_vector(14 downto 0) := (others => '0');  -- dst
  signal tb_valid : std_logic;
  signal tb_done : std_logic;
  signal tb_error : std_logic;
  signal item_0 : std_logic_vector(20 downto 0);  -- route
  signal item_1 : std_logic_vector(2 downto 0);  -- route_len

  function flag(b : boolean) return character is
  begin
    if b then
      return '1';
    end if;
    return '0';
  end function flag;
begin
  -- A port one bit wide is a std_logic, not a vector.
  dut : entity work.kautz_route_gen
    port map (
      clk => clk,
      rst => rst,
      init => tb_start,
      next_route => tb_next,
      src => in_0,
      dst => in_1,
      route_valid => tb_valid,
      route => item_0,
      route_len => item_1,
      done => tb_done,
      error => tb_error
    );

  clk <= not clk after 5 ns;

  drive : process
    file vectors_file : text open read_mode is "vectors.txt";
    variable got_count : natural;
    variable want_0 : list_0;
    variable got_0 : list_0;
    variable want_1 : list_1;
    variable got_1 : list_1;
    variable got_held : flags;
    variable got_alone : flags;
    variable want_error : natural;
    variable want_count : natural;
    variable reset_low : boolean;
    variable timed_out : boolean;
    variable passed : natural := 0;
    variable failed : natural := 0;
    -- Cycles of work of the sequences the golden model accepts that reached done.
    variable sequences : natural := 0;
    variable total_cycles : natural := 0;
    variable max_cycles : natural := 0;
    variable tenths : natural;
    variable li : line;
    variable lo : line;
    variable text_0 : std_logic_vector(15 downto 0);
    variable lead_0 : std_logic_vector(15 downto 0);
    variable text_1 : std_logic_vector(15 downto 0);
    variable lead_1 : std_logic_vector(15 downto 0);
    variable held_0 : std_logic_vector(20 downto 0);
    variable shown_0 : std_logic_vector(23 downto 0);
    variable held_1 : std_logic_vector(2 downto 0);
    variable shown_1 : std_logic_vector(3 downto 0);
    variable delay : natural;
    variable nudge : natural;
    variable lead : natural;
    variable reset : natural;
    variable index : natural := 0;
    variable cycles : natural;
    variable held : boolean;
    variable alone : boolean;
    variable steady : boolean;
    variable finished : boolean;
    variable error_at_done : std_logic;

    -- Inputs change and outputs are sampled at falling edges, half a cycle away from the
    -- rising edges on which the unit samples its inputs.
    procedure step is
    begin
      wait until falling_edge(clk);
    end procedure step;

    -- Writes item j of the golden model's answer (list 0) or of the design's (list 1) after
    -- a space, as kautzgen verify writes it: its fields in brackets or, when they decode
    -- to nothing, its ports in hexadecimal.
    procedure write_item(l : inout line; list : natural; j : natural) is
      variable v_0 : std_logic_vector(20 downto 0);
      variable v_1 : std_logic_vector(2 downto 0);
      constant SLOTS : natural := 7;
      constant FIELD_BITS : natural := 3;
      variable n : natural;
      variable field : natural;
      variable ok : boolean;
    begin
      if list = 0 then
        v_0 := want_0(j);
        v_1 := want_1(j);
      else
        v_0 := got_0(j);
        v_1 := got_1(j);
      end if;
      ok := not is_x(v_0) and not is_x(v_1);
      if ok then
        n := to_integer(unsigned(v_1));
        ok := n >= 0 and n <= SLOTS;
      end if;
      if ok then
        write(l, string'(" ["));
        for f in 0 to n - 1 loop
          field := to_integer(unsigned(v_0((SLOTS - f) * FIELD_BITS - 1 downto (SLOTS - 1 - f) * FIELD_BITS)));
          write(l, integer'image(field));
        end loop;
        write(l, ']');
        return;
      end if;
      write(l, string'(" [")  & "route=" & hex(v_0) & " route_len=" & hex(v_1) & "]");
    end procedure write_item;

    procedure line_out(text : string) is
      variable l : line;
    begin
      write(l, text);
      writeline(output, l);
    end procedure line_out;

    -- Judges the vector just run as kautzgen verify does, and prints it when it fails and
    -- fewer than SHOWN have been printed.
    procedure judge is
      variable wrong : integer := -1;
      variable bad : boolean;
      variable first : boolean;
      variable l : line;
    begin
      for j in 0 to MAX_ITEMS - 1 loop
        if wrong < 0 and j < got_count and j < want_count then
          if got_0(j) /= want_0(j) or got_1(j) /= want_1(j) then
            wrong := j;
          end if;
        end if;
      end loop;
      if not timed_out and want_error = 0 then
        sequences := sequences + 1;
        total_cycles := total_cycles + cycles;
        if cycles > max_cycles then
          max_cycles := cycles;
        end if;
      end if;
      bad := wrong >= 0 or got_count /= want_count or (reset /= 0 and not reset_low) or timed_out;
      for j in 0 to got_count - 1 loop
        bad := bad or not got_held(j) or not got_alone(j);
      end loop;
      if not timed_out and ((error_at_done = '1') /= (want_error /= 0) or not steady or cycles > BOUND) then
        bad := true;
      end if;
      if not bad then
        passed := passed + 1;
        return;
      end if;
      failed := failed + 1;
      if failed > SHOWN then
        return;
      end if;
      write(l, string'("vector "));
      write(l, index);
      write(l, ':');
      write(l, string'(" src="));
      write(l, integer'image(to_integer(unsigned(in_0(14 downto 12)))));
      write(l, integer'image(to_integer(unsigned(in_0(11 downto 9)))));
      write(l, integer'image(to_integer(unsigned(in_0(8 downto 6)))));
      write(l, integer'image(to_integer(unsigned(in_0(5 downto 3)))));
      write(l, integer'image(to_integer(unsigned(in_0(2 downto 0)))));
      write(l, string'(" dst="));
      write(l, integer'image(to_integer(unsigned(in_1(14 downto 12)))));
      write(l, integer'image(to_integer(unsigned(in_1(11 downto 9)))));
      write(l, integer'image(to_integer(unsigned(in_1(8 downto 6)))));
      write(l, integer'image(to_integer(unsigned(in_1(5 downto 3)))));
      write(l, integer'image(to_integer(unsigned(in_1(2 downto 0)))));
      if delay > 0 or nudge /= 0 or lead > 0 or reset /= 0 then
        first := true;
        write(l, string'(" ("));
        if delay > 0 then
          write(l, string'("hold "));
          write(l, delay);
          first := false;
        end if;
        if nudge /= 0 then
          if not first then
            write(l, string'(", "));
          end if;
          write(l, string'("next nudged"));
          first := false;
        end if;
        if lead > 0 then
          if not first then
            write(l, string'(", "));
          end if;
          write(l, string'("lead-in "));
          write(l, lead);
          first := false;
        end if;
        if reset /= 0 then
          if not first then
            write(l, string'(", "));
          end if;
          write(l, string'("rst"));
        end if;
        write(l, ')');
      end if;
      writeline(output, l);
      write(l, string'("  expected:"));
      for j in 0 to want_count - 1 loop
        write_item(l, 0, j);
      end loop;
      if want_error /= 0 then
        write(l, string'(" error"));
      else
        write(l, string'(" done"));
      end if;
      writeline(output, l);
      write(l, string'("  got:     "));
      for j in 0 to got_count - 1 loop
        write_item(l, 1, j);
      end loop;
      if timed_out then
        write(l, string'(" no done after "));
      elsif error_at_done = '1' then
        write(l, string'(" error after "));
      else
        write(l, string'(" done after "));
      end if;
      write(l, cycles);
      write(l, string'(" cycles"));
      writeline(output, l);
      if wrong >= 0 then
        write(l, "  - item " & integer'image(wrong + 1) & " is");
        write_item(l, 1, wrong);
        write(l, string'(", expected"));
        write_item(l, 0, wrong);
        writeline(output, l);
      end if;
      if got_count /= want_count then
        line_out("  - " & integer'image(got_count) & " items, expected " & integer'image(want_count));
      end if;
      for j in 0 to got_count - 1 loop
        if not got_held(j) then
          line_out("  - item " & integer'image(j + 1) & " changed while held");
        end if;
        if not got_alone(j) then
          line_out("  - done or error high while item " & integer'image(j + 1) & " was valid");
        end if;
      end loop;
      if reset /= 0 and not reset_low then
        line_out("  - outputs not all low after rst");
      end if;
      if timed_out then
        line_out("  - no done after " & integer'image(cycles) & " cycles of work");
      else
        if (error_at_done = '1') /= (want_error /= 0) then
          line_out("  - error " & flag(error_at_done = '1') & " at done, expected " & flag(want_error /= 0));
        end if;
        if not steady then
          line_out("  - done, error or valid changed after done");
        end if;
        if cycles > BOUND then
          line_out("  - " & integer'image(cycles) & " cycles of work, over the bound of " & integer'image(BOUND));
        end if;
      end if;
    end procedure judge;
  begin
    step;
    step;
    rst <= '0';
    while not endfile(vectors_file) loop
      readline(vectors_file, li);
      if li'length > 0 then
        hread(li, text_0);
        hread(li, text_1);
        read(li, delay);
        read(li, nudge);
        read(li, lead);
        read(li, reset);
        hread(li, lead_0);
        hread(li, lead_1);
        read(li, want_error);
        read(li, want_count);
        assert want_count < MAX_ITEMS report "vectors.txt: too many items" severity failure;
        for j in 0 to want_count - 1 loop
          hread(li, shown_0);
          want_0(j) := shown_0(20 downto 0);
          hread(li, shown_1);
          want_1(j) := shown_1(2 downto 0);
        end loop;
        reset_low := true;
        timed_out := false;
        got_count := 0;
        if lead > 0 then
          -- Another search, taking each item at once, cut short by this vector's rst or
          -- init.
          in_0 <= lead_0(14 downto 0);
          in_1 <= lead_1(14 downto 0);
          tb_start <= '1';
          step;
          tb_start <= '0';
          for i in 1 to lead - 1 loop
            tb_next <= tb_valid;
            step;
          end loop;
          tb_next <= '0';
        end if;
        if reset /= 0 then
          rst <= '1';
          step;
          rst <= '0';
          reset_low := tb_valid = '0' and tb_done = '0' and tb_error = '0'
                       and item_0 = (item_0'range => '0')
                       and item_1 = (item_1'range => '0');
        end if;
        in_0 <= text_0(14 downto 0);
        in_1 <= text_1(14 downto 0);
        tb_start <= '1';
        step;
        tb_start <= '0';
        -- Cycles of work: the start edge, then every edge before which route_valid was low.
        -- Edges with an item valid, up to and including the one that takes it, are spent
        -- waiting for next_route.
        cycles := 1;
        finished := false;
        while not finished loop
          if tb_done = '1' then
            error_at_done := tb_error;
            steady := tb_valid = '0';
            for i in 1 to AFTER_DONE loop
              tb_next <= '1' when nudge /= 0 else '0';
              step;
              if tb_done /= '1' or tb_valid /= '0' or tb_error /= error_at_done then
                steady := false;
              end if;
            end loop;
            tb_next <= '0';
            finished := true;
          elsif cycles >= TIMEOUT or got_count = MAX_ITEMS then
            timed_out := true;
            finished := true;
          elsif tb_valid = '1' then
            held_0 := item_0;
            held_1 := item_1;
            held := true;
            alone := tb_error = '0';
            for i in 1 to delay loop
              step;
              if tb_valid /= '1' or item_0 /= held_0 or item_1 /= held_1 then
                held := false;
              end if;
              if tb_done /= '0' or tb_error /= '0' then
                alone := false;
              end if;
            end loop;
            tb_next <= '1';
            step;
            tb_next <= '0';
            got_0(got_count) := held_0;
            got_1(got_count) := held_1;
            got_held(got_count) := held;
            got_alone(got_count) := alone;
            got_count := got_count + 1;
          else
            -- next_route while route_valid is low must be ignored.
            tb_next <= '1' when nudge /= 0 else '0';
            step;
            tb_next <= '0';
            cycles := cycles + 1;
          end if;
        end loop;
        judge;
        index := index + 1;
      end if;
    end loop;
    if failed > SHOWN then
      line_out(integer'image(failed - SHOWN) & " more failures not shown");
    end if;
    if sequences > 0 then
      -- The mean to one decimal, rounded half up.
      tenths := (20 * total_cycles + sequences) / (2 * sequences);
      line_out("cycles per route set: mean " & integer'image(tenths / 10) & "." & integer'image(tenths mod 10)
               & ", max " & integer'image(max_cycles) & " (bound " & integer'image(BOUND) & ")");
    end if;
    line_out(integer'image(passed) & " passed, " & integer'image(failed) & " failed");
    if failed /= 0 or passed = 0 then
      std.env.finish(1);
    end if;
    std.env.finish;
  end process drive;
end architecture sim;
