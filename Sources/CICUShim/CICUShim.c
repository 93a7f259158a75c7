#include "CICUShim.h"
#include <unicode/uchar.h>
int32_t cd_decimal_digit_value(uint32_t codepoint) {
  if (codepoint > 0x10FFFF) return -1;
  if (u_charType((UChar32)codepoint) != U_DECIMAL_DIGIT_NUMBER) return -1;
  return u_charDigitValue((UChar32)codepoint);
}
