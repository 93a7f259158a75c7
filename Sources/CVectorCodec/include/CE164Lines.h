#ifndef CE164LINES_H
#define CE164LINES_H

#include <stddef.h>
#include <stdint.h>

/// Reads E.164 lines four at a time with AVX-512: from `cursor`, each
/// line `length` bytes (10 to 16: `+` and 9 to 15 digits) and its ending,
/// `ending` bytes (1: a line feed; 2: a carriage return and a line feed),
/// for as long as four lines in a row are all such lines and each, as
/// ExactE164Reader loads it (the digits right-aligned in two words,
/// padded with ASCII zeros in front, first digit lowest), has `high` and
/// `low` under `high_mask` and `low_mask`: the deciding digits of the
/// number the reader remembered for that shape, so that each has the
/// same answer, its digits' value. Writes the values to `out` and
/// returns how many lines it read (a multiple of four; 0 when the next
/// four do not all qualify). Reads from `cursor - (16 - length)`, which
/// must not be before `begin`, to `end`. Only call it when
/// cvectorcodec_available() returned 1.
size_t cvectorcodec_read_e164_lines(
    const uint8_t *begin, const uint8_t *cursor, const uint8_t *end, int length, int ending, uint64_t high,
    uint64_t low, uint64_t high_mask, uint64_t low_mask, int64_t *out);

#endif
