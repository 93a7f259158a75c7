#ifndef CHARDWARECRC_H
#define CHARDWARECRC_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU has the CRC-32C instruction the functions below use
/// (SSE4.2 on x86-64, the CRC32 extension on AArch64), else 0.
int chardwarecrc_available(void);

/// Continues the CRC-32C register `reg` (not complemented) over `count`
/// bytes at `data` with the CPU's instruction. Only call it when
/// chardwarecrc_available() returned 1.
uint32_t chardwarecrc_update(uint32_t reg, const void *data, size_t count);

#endif
