// CRC-32C (Castagnoli) with the CPU's own instruction: SSE4.2 `crc32` on
// x86-64, the CRC32 extension's `crc32c` on AArch64. The register is the
// reflected, not complemented one that CallDirectoryFormat's CRC32C keeps,
// so the two implementations continue each other's work.
//
// Large inputs run three independent streams over three thirds of a block
// and join them with the shift tables below (the instruction's latency is
// three cycles and its throughput one per cycle, so one stream would use a
// third of it).

#include "CHardwareCRC.h"

#include <string.h>

#if defined(__x86_64__)

#include <cpuid.h>

int chardwarecrc_available(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  return (ecx & bit_SSE4_2) != 0;
}

#define CRC_TARGET __attribute__((target("sse4.2")))
#define CRC_U8(crc, byte) __builtin_ia32_crc32qi((crc), (byte))
#define CRC_U64(crc, word) ((uint32_t)__builtin_ia32_crc32di((crc), (word)))

#elif defined(__aarch64__)

#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif

int chardwarecrc_available(void) { return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0; }

#define CRC_TARGET __attribute__((target("crc")))
#define CRC_U8(crc, byte) __builtin_arm_crc32cb((crc), (byte))
#define CRC_U64(crc, word) __builtin_arm_crc32cd((crc), (word))

#else

int chardwarecrc_available(void) { return 0; }

uint32_t chardwarecrc_update(uint32_t reg, const void *data, size_t count) {
  (void)data;
  (void)count;
  return reg;
}

#endif

#if defined(CRC_TARGET)

// The polynomial, reflected.
#define POLY 0x82F63B78u

// Bytes per stream in one three-stream block.
#define STRIDE 8192

// shift[k][b]: the register contribution of byte b followed by STRIDE * (k + 1)
// zero bytes... built lazily as the operator "append STRIDE zero bytes" and
// "append 2 * STRIDE zero bytes", each as four 256-entry tables.
static uint32_t zeros1[4][256];
static uint32_t zeros2[4][256];
static int tablesReady;

// Multiplies a 32x32 GF(2) matrix (column form) by a vector.
static uint32_t gf2_times(const uint32_t *matrix, uint32_t vector) {
  uint32_t sum = 0;
  while (vector) {
    if (vector & 1) sum ^= *matrix;
    vector >>= 1;
    matrix++;
  }
  return sum;
}

static void gf2_square(uint32_t *square, const uint32_t *matrix) {
  for (int n = 0; n < 32; n++) square[n] = gf2_times(matrix, matrix[n]);
}

// The operator that appends `length` zero bytes to a CRC register.
static void zeros_operator(uint32_t *even, size_t length) {
  uint32_t odd[32];
  odd[0] = POLY;  // one zero bit
  uint32_t row = 1;
  for (int n = 1; n < 32; n++) {
    odd[n] = row;
    row <<= 1;
  }
  gf2_square(even, odd);  // two zero bits
  gf2_square(odd, even);  // four zero bits
  // Every further square doubles the count: odd holds 4 bits, the first
  // square below gives one byte.
  do {
    gf2_square(even, odd);
    length >>= 1;
    if (length == 0) return;
    gf2_square(odd, even);
    length >>= 1;
  } while (length);
  memcpy(even, odd, sizeof(odd));
}

static void zeros_tables(uint32_t tables[4][256], size_t length) {
  uint32_t op[32];
  zeros_operator(op, length);
  for (int n = 0; n < 256; n++) {
    tables[0][n] = gf2_times(op, (uint32_t)n);
    tables[1][n] = gf2_times(op, (uint32_t)n << 8);
    tables[2][n] = gf2_times(op, (uint32_t)n << 16);
    tables[3][n] = gf2_times(op, (uint32_t)n << 24);
  }
}

static uint32_t apply(uint32_t tables[4][256], uint32_t crc) {
  return tables[0][crc & 0xFF] ^ tables[1][(crc >> 8) & 0xFF] ^ tables[2][(crc >> 16) & 0xFF] ^ tables[3][crc >> 24];
}

static void prepare_tables(void) {
  if (__atomic_load_n(&tablesReady, __ATOMIC_ACQUIRE)) return;
  // Two threads may build the same tables at once; they write equal values.
  zeros_tables(zeros1, STRIDE);
  zeros_tables(zeros2, 2 * STRIDE);
  __atomic_store_n(&tablesReady, 1, __ATOMIC_RELEASE);
}

CRC_TARGET static uint32_t single(uint32_t crc, const unsigned char *p, size_t count) {
  while (count && ((uintptr_t)p & 7)) {
    crc = CRC_U8(crc, *p++);
    count--;
  }
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    crc = CRC_U64(crc, word);
    p += 8;
    count -= 8;
  }
  while (count--) crc = CRC_U8(crc, *p++);
  return crc;
}

CRC_TARGET uint32_t chardwarecrc_update(uint32_t reg, const void *data, size_t count) {
  const unsigned char *p = data;
  if (count >= 3 * STRIDE) {
    prepare_tables();
    while (count >= 3 * STRIDE) {
      uint32_t a = reg, b = 0, c = 0;
      const unsigned char *end = p + STRIDE;
      while (p < end) {
        uint64_t x, y, z;
        memcpy(&x, p, 8);
        memcpy(&y, p + STRIDE, 8);
        memcpy(&z, p + 2 * STRIDE, 8);
        a = CRC_U64(a, x);
        b = CRC_U64(b, y);
        c = CRC_U64(c, z);
        p += 8;
      }
      // a covers the first third and must move past the other two; b past one.
      reg = apply(zeros2, a) ^ apply(zeros1, b) ^ c;
      p += 2 * STRIDE;
      count -= 3 * STRIDE;
    }
  }
  return single(reg, p, count);
}

#endif
