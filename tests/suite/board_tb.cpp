// The Verilator harness of the board self-test top (tests/suite/board_selftest.rs): it
// clocks the top, holds the reset button for the first cycles and the pause button from
// a given cycle on, and prints every change of uart_tx and of the LEDs with its cycle, so
// that the test decodes the UART bit by bit itself.
//
// Usage: sim CYCLES PAUSE_AT (PAUSE_AT past CYCLES: never paused).
// Output lines: "tx CYCLE LEVEL" and "leds CYCLE PASS FAIL ACTIVITY", then "end CYCLES".
// The buttons and LEDs are active high, as on the ULX3S.
#include "Vkautz_selftest.h"
#include "verilated.h"
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s CYCLES PAUSE_AT\n", argv[0]);
        return 2;
    }
    const unsigned long cycles = std::strtoul(argv[1], nullptr, 10);
    const unsigned long pause_at = std::strtoul(argv[2], nullptr, 10);
    VerilatedContext context;
    Vkautz_selftest top{&context};
    const unsigned long reset_cycles = 8;
    int tx = -1, leds = -1;
    for (unsigned long cycle = 0; cycle < cycles; ++cycle) {
        top.btn_reset = cycle < reset_cycles;
        top.btn_pause = cycle >= pause_at;
        top.clk = 0;
        top.eval();
        top.clk = 1;
        top.eval();
        if (top.uart_tx != tx) {
            tx = top.uart_tx;
            std::printf("tx %lu %d\n", cycle, tx);
        }
        const int now = top.led_pass << 2 | top.led_fail << 1 | top.led_activity;
        if (now != leds) {
            leds = now;
            std::printf("leds %lu %d %d %d\n", cycle, top.led_pass, top.led_fail,
                        top.led_activity);
        }
    }
    std::printf("end %lu\n", cycles);
    top.final();
    return 0;
}
