// The blob format's hot loops with AVX-512 (x86-64 only), eight numbers at
// a time: Elias–Fano decoding (the positions of the high region's ones from
// VPCOMPRESSB, the low fields from one VPERMB and one variable shift, the
// ascent check on eight neighbours at once), Elias–Fano encoding, the
// content digest's stream of gaps, and the block writer's scan for numbers
// that may end a block. CallDirectoryFormat's Swift loops do the same work
// wherever this is not available, and its tests hold the two to the same
// answers and bytes.

#include "CVectorCodec.h"

#include <string.h>

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

int cvectorcodec_available(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  // OSXSAVE, POPCNT.
  if (!(ecx & (1u << 27)) || !(ecx & (1u << 23))) return 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
  const unsigned int f = 1u << 16, dq = 1u << 17, bw = 1u << 30, vl = 1u << 31;
  const unsigned int vbmi = 1u << 1, vbmi2 = 1u << 6;
  if ((ebx & (f | dq | bw | vl)) != (f | dq | bw | vl)) return 0;
  if ((ecx & (vbmi | vbmi2)) != (vbmi | vbmi2)) return 0;
  // The system saves SSE, AVX, opmask and both halves of the ZMM registers.
  unsigned int xcr0_low, xcr0_high;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  return (xcr0_low & 0xE6) == 0xE6;
}

#define EF_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi,avx512vbmi2,popcnt")))

static inline uint64_t load_word(const uint8_t *address) {
  uint64_t word;
  memcpy(&word, address, 8);
  return word;
}

EF_TARGET int cvectorcodec_elias_fano_narrow(
    const uint8_t *payload, int64_t m, int l, uint64_t upper, uint64_t first, int64_t *out) {
  int64_t *values = out + 1;
  const uint64_t mask = ((uint64_t)1 << l) - 1;

  // The positions p_i of the high region's first m ones, into values.
  const int64_t high_start = m * l;
  const uint8_t *address = payload + (high_start >> 3);
  const int shift = (int)(high_start & 7);
  uint64_t word = load_word(address) & (~(uint64_t)0 << shift);
  uint64_t base = (uint64_t)0 - (uint64_t)shift;
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36,
      35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7,
      6, 5, 4, 3, 2, 1, 0);
  uint8_t packed[64];
  int64_t found = 0;
  while (found < m) {
    const int ones = __builtin_popcountll(word);
    _mm512_storeu_si512(packed, _mm512_maskz_compress_epi8(word, iota));
    const __m512i bases = _mm512_set1_epi64((int64_t)base);
    int64_t *target = values + found;
    if (found + 64 <= m) {
      // Room for a whole word's positions: all eight lanes of each chunk
      // go out; those past the word's ones are overwritten by the next
      // word's.
      for (int chunk = 0; chunk < ones; chunk += 8) {
        _mm512_storeu_si512(
            target + chunk,
            _mm512_add_epi64(_mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(packed + chunk))), bases));
      }
    } else {
      // Near the end: only the positions up to the m-th one.
      const int64_t wanted = ones < m - found ? ones : m - found;
      for (int chunk = 0; chunk < wanted; chunk += 8) {
        const int64_t count = wanted - chunk < 8 ? wanted - chunk : 8;
        _mm512_mask_storeu_epi64(
            target + chunk, (__mmask8)((1u << count) - 1),
            _mm512_add_epi64(_mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(packed + chunk))), bases));
      }
    }
    found += ones;
    address += 8;
    base += 64;
    word = load_word(address);
  }

  // value_i = ((p_i - i) << l | low_i) + first + 1 + i, eight at a time:
  // the eight fields of group g are the l bytes from byte g * l; lane j
  // takes the eight bytes from its field's first byte, then shifts.
  const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i field_bits = _mm512_mullo_epi64(lane, _mm512_set1_epi64(l));
  const __m512i permutation = _mm512_add_epi64(
      _mm512_mullo_epi64(_mm512_srli_epi64(field_bits, 3), _mm512_set1_epi64(0x0101010101010101LL)),
      _mm512_set1_epi64(0x0706050403020100LL));
  const __m512i field_shifts = _mm512_and_si512(field_bits, _mm512_set1_epi64(7));
  const __m512i low_mask = _mm512_set1_epi64((int64_t)mask);
  const __m128i width = _mm_cvtsi32_si128(l);
  const __m512i eight = _mm512_set1_epi64(8);
  __m512i index = lane;
  __m512i offset = _mm512_add_epi64(lane, _mm512_set1_epi64((int64_t)(first + 1)));
  int64_t i = 0;
  for (; i + 8 <= m; i += 8) {
    const __m128i bytes = _mm_loadu_si128((const __m128i *)(payload + (i >> 3) * l));
    __m512i lows = _mm512_permutexvar_epi8(permutation, _mm512_broadcast_i32x4(bytes));
    lows = _mm512_and_si512(_mm512_srlv_epi64(lows, field_shifts), low_mask);
    const __m512i highs = _mm512_sub_epi64(_mm512_loadu_si512(values + i), index);
    const __m512i x = _mm512_or_si512(_mm512_sll_epi64(highs, width), lows);
    _mm512_storeu_si512(values + i, _mm512_add_epi64(x, offset));
    index = _mm512_add_epi64(index, eight);
    offset = _mm512_add_epi64(offset, eight);
  }
  for (; i < m; i++) {
    const int64_t bit = i * l;
    uint64_t low = 0;
    if (l > 0) {
      // Up to 16 bits from bit `bit`: three bytes hold them.
      const uint8_t *at = payload + (bit >> 3);
      const uint32_t three = (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16;
      low = (three >> (bit & 7)) & mask;
    }
    const uint64_t x = (((uint64_t)values[i] - (uint64_t)i) << l) | low;
    values[i] = (int64_t)(x + first + 1 + (uint64_t)i);
  }

  // The values ascend strictly from first: each step's (value - previous - 1)
  // has bit 63 clear (every value is below 2^63 + 2^35, so no step wraps
  // into a false ascent), and the last x is upper.
  __m512i descents = _mm512_setzero_si512();
  const __m512i one = _mm512_set1_epi64(1);
  int64_t k = 0;
  for (; k + 8 <= m; k += 8) {
    const __m512i current = _mm512_loadu_si512(out + k + 1);
    const __m512i previous = _mm512_loadu_si512(out + k);
    descents = _mm512_or_si512(descents, _mm512_sub_epi64(_mm512_sub_epi64(current, previous), one));
  }
  uint64_t tail = (uint64_t)_mm512_reduce_or_epi64(descents);
  for (; k < m; k++) tail |= (uint64_t)out[k + 1] - (uint64_t)out[k] - 1;
  return (tail >> 63) == 0 && (uint64_t)out[m] == first + (uint64_t)m + upper;
}


/// Bit fields written least-significant-bit first, eight bytes at a time.
typedef struct {
  uint8_t *cursor;
  uint64_t accumulator;
  int filled;
} bit_writer;

/// Writes `value`, which fits in `width` bits (0...64).
static inline void put_bits(bit_writer *writer, uint64_t value, int width) {
  writer->accumulator |= value << writer->filled;
  const int total = writer->filled + width;
  if (total >= 64) {
    memcpy(writer->cursor, &writer->accumulator, 8);
    writer->cursor += 8;
    writer->accumulator = writer->filled == 0 ? 0 : value >> (64 - writer->filled);
    writer->filled = total - 64;
  } else {
    writer->filled = total;
  }
}

EF_TARGET size_t cvectorcodec_elias_fano_encode_narrow(
    const uint64_t *values, int64_t m, int l, uint64_t base, uint8_t *out) {
  const uint64_t *coded = values + 1;
  bit_writer writer = {out, 0, 0};
  const uint64_t mask = ((uint64_t)1 << l) - 1;
  const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i eight = _mm512_set1_epi64(8);
  const __m128i width = _mm_cvtsi32_si128(l);

  // The low fields, eight at a time: each shifted to its place among
  // the four of its half, the halves' lanes or-ed into two words of 4l bits.
  int64_t i = 0;
  if (l > 0) {
    const __m512i low_mask = _mm512_set1_epi64((int64_t)mask);
    const __m512i places = _mm512_set_epi64(3 * l, 2 * l, l, 0, 3 * l, 2 * l, l, 0);
    __m512i bias = _mm512_add_epi64(lane, _mm512_set1_epi64((int64_t)base));
    for (; i + 8 <= m; i += 8) {
      const __m512i x = _mm512_sub_epi64(_mm512_loadu_si512(coded + i), bias);
      const __m512i lows = _mm512_sllv_epi64(_mm512_and_si512(x, low_mask), places);
      put_bits(&writer, (uint64_t)_mm512_mask_reduce_or_epi64(0x0F, lows), 4 * l);
      put_bits(&writer, (uint64_t)_mm512_mask_reduce_or_epi64(0xF0, lows), 4 * l);
      bias = _mm512_add_epi64(bias, eight);
    }
    for (; i < m; i++) put_bits(&writer, (coded[i] - base - (uint64_t)i) & mask, l);
  }

  // The high region: a one at (x_i >> l) + i. The ones of eight entries
  // usually fall in the current 64-bit word and the next: one variable
  // shift per word places them, an or gathers them; eight that reach
  // further go one by one.
  uint64_t word = 0;
  uint64_t word_start = 0;
  uint64_t position = 0;
  const __m512i ones = _mm512_set1_epi64(1);
  const __m512i sixty_four = _mm512_set1_epi64(64);
  __m512i bias = _mm512_add_epi64(lane, _mm512_set1_epi64((int64_t)base));
  __m512i rank = lane;
  i = 0;
  for (; i + 8 <= m; i += 8) {
    const __m512i x = _mm512_sub_epi64(_mm512_loadu_si512(coded + i), bias);
    const __m512i positions = _mm512_add_epi64(_mm512_srl_epi64(x, width), rank);
    bias = _mm512_add_epi64(bias, eight);
    rank = _mm512_add_epi64(rank, eight);
    const __m512i relative = _mm512_sub_epi64(positions, _mm512_set1_epi64((int64_t)word_start));
    // The largest is the last lane's: the positions ascend.
    const uint64_t reach = (uint64_t)_mm_extract_epi64(_mm512_extracti64x2_epi64(relative, 3), 1);
    position = reach + word_start;
    if (reach < 128) {
      // Shifts by 64 or more (or by a wrapped negative) give zero.
      word |= (uint64_t)_mm512_reduce_or_epi64(_mm512_sllv_epi64(ones, relative));
      if (reach >= 64) {
        put_bits(&writer, word, 64);
        word = (uint64_t)_mm512_reduce_or_epi64(_mm512_sllv_epi64(ones, _mm512_sub_epi64(relative, sixty_four)));
        word_start += 64;
      }
      continue;
    }
    uint64_t lanes[8];
    _mm512_storeu_si512(lanes, positions);
    for (int j = 0; j < 8; j++) {
      while (lanes[j] - word_start >= 64) {
        put_bits(&writer, word, 64);
        word = 0;
        word_start += 64;
      }
      word |= (uint64_t)1 << (lanes[j] - word_start);
    }
  }
  for (; i < m; i++) {
    position = ((coded[i] - base - (uint64_t)i) >> l) + (uint64_t)i;
    while (position - word_start >= 64) {
      put_bits(&writer, word, 64);
      word = 0;
      word_start += 64;
    }
    word |= (uint64_t)1 << (position - word_start);
  }
  // The last one ends the region.
  put_bits(&writer, word, (int)(position - word_start) + 1);
  while (writer.filled > 0) {
    *writer.cursor++ = (uint8_t)writer.accumulator;
    writer.accumulator >>= 8;
    writer.filled -= 8;
  }
  return (size_t)(writer.cursor - out);
}


/// Writes `value` as a LEB128 varint at `out + at`; returns where it ends.
static inline size_t put_varint(uint64_t value, uint8_t *out, size_t at) {
  while (value >= 0x80) {
    out[at++] = (uint8_t)(value | 0x80);
    value >>= 7;
  }
  out[at++] = (uint8_t)value;
  return at;
}

EF_TARGET size_t cvectorcodec_write_gaps(
    const int64_t *source, int64_t count, int64_t *last, uint64_t *pending_ones, uint8_t *out, size_t at,
    int64_t *falls) {
  int64_t previous = *last;
  uint64_t ones = *pending_ones;
  int64_t fell = 0;
  const __m512i two = _mm512_set1_epi64(2);
  const __m512i below = _mm512_set1_epi64((1LL << 28) - 2);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i group_bits = _mm512_set1_epi64(0x7F);
  const __m512i continuations = _mm512_set1_epi64(0x808080);
  const __m512i thirty_two = _mm512_set1_epi64(32);
  const __m512i byte_places = _mm512_set1_epi64(0x0706050403020100LL);
  const __m512i byte_copies = _mm512_set1_epi64(0x0101010101010101LL);
  const __m512i one = _mm512_set1_epi64(1);
  int64_t i = 0;
  while (i < count) {
    if (ones == 0 && i + 8 <= count) {
      const __m512i numbers = _mm512_loadu_si512(source + i);
      const __m512i before = _mm512_alignr_epi64(numbers, _mm512_set1_epi64(previous), 7);
      const __m512i gaps = _mm512_sub_epi64(numbers, before);
      // Eight gaps of 2 to 2^28 - 1 after numbers of at least 0: no run of
      // ones to count, no descent, varints of one to four bytes.
      const __mmask8 plain =
          _mm512_cmplt_epu64_mask(_mm512_sub_epi64(gaps, two), below) & _mm512_cmpge_epi64_mask(numbers, zero);
      if (plain == 0xFF) {
        // The 7-bit groups spread to bytes; the length from three compares.
        const __m512i groups = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_and_si512(gaps, group_bits),
                _mm512_and_si512(_mm512_slli_epi64(gaps, 1), _mm512_slli_epi64(group_bits, 8))),
            _mm512_or_si512(
                _mm512_and_si512(_mm512_slli_epi64(gaps, 2), _mm512_slli_epi64(group_bits, 16)),
                _mm512_and_si512(_mm512_slli_epi64(gaps, 3), _mm512_slli_epi64(group_bits, 24))));
        __m512i lengths = one;
        lengths = _mm512_mask_add_epi64(lengths, _mm512_cmpge_epu64_mask(gaps, _mm512_set1_epi64(1 << 7)), lengths, one);
        lengths = _mm512_mask_add_epi64(lengths, _mm512_cmpge_epu64_mask(gaps, _mm512_set1_epi64(1 << 14)), lengths, one);
        lengths = _mm512_mask_add_epi64(lengths, _mm512_cmpge_epu64_mask(gaps, _mm512_set1_epi64(1 << 21)), lengths, one);
        // 0x80 in every byte of a varint but its last.
        const __m512i bytes = _mm512_or_si512(
            groups, _mm512_srlv_epi64(continuations, _mm512_sub_epi64(thirty_two, _mm512_slli_epi64(lengths, 3))));
        const __mmask64 keep =
            _mm512_cmplt_epu8_mask(byte_places, _mm512_mullo_epi64(lengths, byte_copies));
        _mm512_storeu_si512(out + at, _mm512_maskz_compress_epi8(keep, bytes));
        at += (size_t)__builtin_popcountll(keep);
        previous = source[i + 7];
        i += 8;
        continue;
      }
    }
    // One at a time, as the Swift loop: a gap of 1 joins the run of ones,
    // which goes out before the next other gap.
    const int64_t end = i + 8 < count ? i + 8 : count;
    for (; i < end; i++) {
      const int64_t number = source[i];
      fell |= (int64_t)((uint64_t)number - (uint64_t)previous - 1) | number;
      const uint64_t gap = (uint64_t)number - (uint64_t)previous;
      previous = number;
      if (gap == 1) {
        ones++;
        continue;
      }
      if (ones > 0) {
        if (ones == 1) {
          out[at++] = 1;
        } else {
          out[at++] = 0;
          at = put_varint(ones, out, at);
        }
        ones = 0;
      }
      at = put_varint(gap, out, at);
    }
  }
  *last = previous;
  *pending_ones = ones;
  *falls |= fell;
  return at;
}


EF_TARGET int64_t cvectorcodec_skip_quiet(
    const uint64_t *values, int64_t from, int64_t block_start, int64_t limit) {
  const __m512i first = _mm512_set1_epi64((int64_t)values[block_start]);
  const __m512i one = _mm512_set1_epi64(1);
  int64_t next = from;
  while (next + 8 <= limit) {
    const __m512i before = _mm512_loadu_si512(values + next - 1);
    const __m512i jumps = _mm512_sub_epi64(_mm512_loadu_si512(values + next), before);
    const __m512i spans = _mm512_sub_epi64(before, first);
    // A streak goes on (a jump of 1), or the jump may cut the block
    // (jump / 64 > span / 2048).
    const __mmask8 loud = _mm512_cmpeq_epu64_mask(jumps, one) |
                          _mm512_cmpgt_epu64_mask(_mm512_srli_epi64(jumps, 6), _mm512_srli_epi64(spans, 11));
    if (loud) break;
    next += 8;
  }
  return next;
}

#else

int cvectorcodec_available(void) { return 0; }

int cvectorcodec_elias_fano_narrow(
    const uint8_t *payload, int64_t m, int l, uint64_t upper, uint64_t first, int64_t *out) {
  (void)payload;
  (void)m;
  (void)l;
  (void)upper;
  (void)first;
  (void)out;
  return 0;
}

int64_t cvectorcodec_skip_quiet(
    const uint64_t *values, int64_t from, int64_t block_start, int64_t limit) {
  (void)values;
  (void)block_start;
  (void)limit;
  return from;
}

size_t cvectorcodec_write_gaps(
    const int64_t *source, int64_t count, int64_t *last, uint64_t *pending_ones, uint8_t *out, size_t at,
    int64_t *falls) {
  (void)source;
  (void)count;
  (void)last;
  (void)pending_ones;
  (void)out;
  (void)falls;
  return at;
}

size_t cvectorcodec_elias_fano_encode_narrow(
    const uint64_t *values, int64_t m, int l, uint64_t base, uint8_t *out) {
  (void)values;
  (void)m;
  (void)l;
  (void)base;
  (void)out;
  return 0;
}

#endif
