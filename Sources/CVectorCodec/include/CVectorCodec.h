#ifndef CVECTORCODEC_H
#define CVECTORCODEC_H

#include <stddef.h>
#include <stdint.h>

// E.164 lines read four at a time (for PhoneNumbers).
#include "CE164Lines.h"

/// 1 when this CPU and system can run the AVX-512 functions below (x86-64
/// with AVX-512 F, BW, DQ, VL, VBMI and VBMI2, and the system saving their
/// registers), else 0.
int cvectorcodec_available(void);

/// Decodes the `m` coded entries of an Elias–Fano block with low width
/// `l` (0...16) into `out[1...m]`: entry i (0-based) is
/// `first + 1 + i + (((p_i - i) << l) | low_i)`, p_i being the position
/// of the i-th one of the high region (which starts at bit `m * l` of
/// `payload`) and low_i the i-th `l`-bit field from bit 0.
///
/// The caller has checked that the high region holds exactly `m` ones
/// and keeps 16 readable bytes after it. Writes nothing outside
/// `out[1...m]`. Returns 1 when the values ascend strictly from `first`
/// (`out[0]`) and the last x is `upper`, else 0 (the block is corrupt).
/// Only call it when cvectorcodec_available() returned 1.
int cvectorcodec_elias_fano_narrow(
    const uint8_t *payload, int64_t m, int l, uint64_t upper, uint64_t first, int64_t *out);

/// Writes the bit fields of an Elias–Fano block with low width `l`
/// (0...16) and `m` (at least 1) coded entries at `out`, as the Swift
/// encoder does: x_i = values[i + 1] - base - i for i in 0..<m, their low
/// `l` bits from bit 0, then from bit m * l the high region, a one at
/// (x_i >> l) + i, up to the last; zero bits to a whole byte. The values
/// ascend strictly, above base - 1. Returns the bytes written. Only call
/// it when cvectorcodec_available() returned 1.
size_t cvectorcodec_elias_fano_encode_narrow(
    const uint64_t *values, int64_t m, int l, uint64_t base, uint8_t *out);

/// The content digest's stream of blocking numbers (blob-format.md §7)
/// for `count` numbers from `source`, after the number `*last` and
/// `*pending_ones` gaps of 1 not yet written, as the Swift loop writes it:
/// a run of gaps of 1 as byte 1 (one) or 0 and its length (more), every
/// other gap as a LEB128 varint. Writes from `out + at`, where there is
/// room for 21 bytes a number and 64 more; returns where the stream ends,
/// with `*last` and `*pending_ones` updated. Ors into `*falls` a value
/// with bit 63 set when a number is below 0 or does not rise above the
/// one before it. Only call it when cvectorcodec_available() returned 1.
size_t cvectorcodec_write_gaps(
    const int64_t *source, int64_t count, int64_t *last, uint64_t *pending_ones, uint8_t *out, size_t at,
    int64_t *falls);

/// The block writer's scan for numbers that may change a pending block
/// `values[block_start..<from]` other than by joining it, eight at a time:
/// returns the first index `next` (from `from`, in steps of eight, while
/// `next + 8 <= limit`) whose eight numbers hold one 1 above the one
/// before it, or one that jumps more than 64 times a 2048th of the span
/// from `values[block_start]` to the one before it. Only call it when
/// cvectorcodec_available() returned 1.
int64_t cvectorcodec_skip_quiet(const uint64_t *values, int64_t from, int64_t block_start, int64_t limit);

#endif
