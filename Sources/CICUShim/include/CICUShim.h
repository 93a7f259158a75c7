#ifndef CICUSHIM_H
#define CICUSHIM_H
#include <stdint.h>
/// Decimal digit value (0-9) of a code point of general category Nd, else -1.
int32_t cd_decimal_digit_value(uint32_t codepoint);
#endif
