// ExactE164Reader's remembered-shape path with AVX-512, four lines at a
// time: each line's sixteen digit places in a 128-bit lane, checked
// against the remembered deciding digits and for being digits, and
// turned into numbers by multiply-adds (pairs, fours, eights, then the
// two halves). The Swift reader answers the same lines one at a time, and
// its tests hold the two to the same numbers.

#include "CE164Lines.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define LINES_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

LINES_TARGET size_t cvectorcodec_read_e164_lines(
    const uint8_t *begin, const uint8_t *cursor, const uint8_t *end, int length, int ending, uint64_t high,
    uint64_t low, uint64_t high_mask, uint64_t low_mask, int64_t *out) {
  if (length < 10 || length > 16 || ending < 1 || ending > 2 || cursor - begin < 16 - length) return 0;
  const size_t stride = (size_t)length + (size_t)ending;
  // The carriage return before the line feed, or the line feed itself.
  const uint8_t after_number = ending == 2 ? '\r' : '\n';
  // Places before the first digit (the `+` and what precedes it) read as '0'.
  const uint64_t lane_padding = (1u << (17 - length)) - 1;
  const __mmask64 padding = lane_padding | lane_padding << 16 | lane_padding << 32 | lane_padding << 48;
  const __m512i zeros = _mm512_set1_epi8('0');
  const __m512i nine = _mm512_set1_epi8(9);
  const __m512i masks = _mm512_set_epi64(low_mask, high_mask, low_mask, high_mask, low_mask, high_mask, low_mask, high_mask);
  const __m512i wanted = _mm512_set_epi64(low, high, low, high, low, high, low, high);
  const __m512i tens = _mm512_set1_epi16(0x010A);          // bytes 10, 1
  const __m512i hundreds = _mm512_set1_epi32(0x00010064);   // words 100, 1
  const __m512i ten_thousands = _mm512_set1_epi32(0x00012710);  // words 10000, 1
  const __m512i hundred_millions = _mm512_set1_epi64(100000000);
  size_t read = 0;
  while ((size_t)(end - cursor) >= 4 * stride) {
    for (int line = 0; line < 4; line++) {
      const uint8_t *start = cursor + line * stride;
      if (start[0] != '+' || start[length] != after_number || start[stride - 1] != '\n') return read;
    }
    const uint8_t *last = cursor + length - 16;
    __m512i lanes = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)last));
    lanes = _mm512_inserti32x4(lanes, _mm_loadu_si128((const __m128i *)(last + stride)), 1);
    lanes = _mm512_inserti32x4(lanes, _mm_loadu_si128((const __m128i *)(last + 2 * stride)), 2);
    lanes = _mm512_inserti32x4(lanes, _mm_loadu_si128((const __m128i *)(last + 3 * stride)), 3);
    lanes = _mm512_mask_blend_epi8(padding, lanes, zeros);
    if (_mm512_cmpneq_epi64_mask(_mm512_and_si512(lanes, masks), wanted) != 0) return read;
    const __m512i digits = _mm512_sub_epi8(lanes, zeros);
    if (_mm512_cmpgt_epu8_mask(digits, nine) != 0) return read;
    // Pairs (first digit times 10), fours, then eights: in each lane the
    // high word's value and the low word's, twice.
    const __m512i pairs = _mm512_maddubs_epi16(digits, tens);
    const __m512i fours = _mm512_madd_epi16(pairs, hundreds);
    const __m512i eights = _mm512_madd_epi16(_mm512_packus_epi32(fours, fours), ten_thousands);
    // Each 64-bit half: the high word's value below, the low word's above.
    const __m512i values = _mm512_add_epi64(_mm512_mul_epu32(eights, hundred_millions), _mm512_srli_epi64(eights, 32));
    _mm256_storeu_si256((__m256i *)out, _mm512_castsi512_si256(_mm512_maskz_compress_epi64(0x55, values)));
    out += 4;
    read += 4;
    cursor += 4 * stride;
  }
  return read;
}

#else

size_t cvectorcodec_read_e164_lines(
    const uint8_t *begin, const uint8_t *cursor, const uint8_t *end, int length, int ending, uint64_t high,
    uint64_t low, uint64_t high_mask, uint64_t low_mask, int64_t *out) {
  (void)begin;
  (void)cursor;
  (void)end;
  (void)length;
  (void)ending;
  (void)high;
  (void)low;
  (void)high_mask;
  (void)low_mask;
  (void)out;
  return 0;
}

#endif
