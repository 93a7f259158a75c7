// ICU is included here only; see CICUShim.h for why.
// Never define U_DISABLE_RENAMING: Debian's libicuuc exports only the
// versioned symbols (u_charType_72, ...), which these macros resolve to.

#include "CICUShim.h"

#include <unicode/ubrk.h>
#include <unicode/ucnv.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utext.h>
#include <unicode/utypes.h>

#include <stdlib.h>

#if defined(__linux__)
// libicuuc is loaded with dlopen the first time a cd_ function runs, not
// linked: linking it made every start of every calldir command load and
// relocate it, libicudata and libstdc++, which most commands never use.
// The calls below go through a table of the versioned entry points
// (u_charType_72, ...), resolved once; the macros after it send each call
// there, so the code that follows reads as plain ICU.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define CD_STRINGIFY2(x) #x
#define CD_STRINGIFY(x) CD_STRINGIFY2(x)

// Every ICU function this file calls (each argument expands to its
// versioned name).
#define CD_ICU_FUNCTIONS(X)                                                   \
  X(u_charType) X(u_charDigitValue) X(u_isUWhiteSpace) X(u_strFromUTF8)      \
  X(u_strToUTF8) X(unorm2_getNFCInstance) X(unorm2_normalize) X(ubrk_open)   \
  X(ubrk_setUText) X(ubrk_close) X(ubrk_first) X(ubrk_next) X(ucnv_open)     \
  X(ucnv_close) X(ucnv_convertEx) X(utext_openUTF8) X(utext_close)

#define CD_ICU_FIELD(name) __typeof__(name) *name;
static struct {
  CD_ICU_FUNCTIONS(CD_ICU_FIELD)
} cd_icu_table;

static pthread_once_t cd_icu_once = PTHREAD_ONCE_INIT;
static char cd_icu_error[300];

static void cd_icu_load(void) {
  const char *library_name = "libicuuc.so." CD_STRINGIFY(U_ICU_VERSION_MAJOR_NUM);
  void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(cd_icu_error, sizeof cd_icu_error, "cannot load ICU (%s): %s", library_name,
             reason != NULL ? reason : "not found");
    return;
  }
#define CD_ICU_RESOLVE(name)                                                           \
  cd_icu_table.name = (__typeof__(cd_icu_table.name))dlsym(library, CD_STRINGIFY(name)); \
  if (cd_icu_table.name == NULL && cd_icu_error[0] == '\0') {                           \
    snprintf(cd_icu_error, sizeof cd_icu_error, "%s has no %s", library_name,          \
             CD_STRINGIFY(name));                                                      \
  }
  CD_ICU_FUNCTIONS(CD_ICU_RESOLVE)
#undef CD_ICU_RESOLVE
}

// The loaded table. Without ICU calldir cannot go on (as when the dynamic
// linker could not find the library): it says so and exits with
// EX_UNAVAILABLE.
static inline __typeof__(cd_icu_table) *cd_icu(void) {
  pthread_once(&cd_icu_once, cd_icu_load);
  if (cd_icu_error[0] != '\0') {
    fprintf(stderr, "error: %s\n", cd_icu_error);
    exit(69);
  }
  return &cd_icu_table;
}

#undef u_charType
#define u_charType(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(u_charType)(__VA_ARGS__)
#undef u_charDigitValue
#define u_charDigitValue(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(u_charDigitValue)(__VA_ARGS__)
#undef u_isUWhiteSpace
#define u_isUWhiteSpace(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(u_isUWhiteSpace)(__VA_ARGS__)
#undef u_strFromUTF8
#define u_strFromUTF8(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(u_strFromUTF8)(__VA_ARGS__)
#undef u_strToUTF8
#define u_strToUTF8(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(u_strToUTF8)(__VA_ARGS__)
#undef unorm2_getNFCInstance
#define unorm2_getNFCInstance(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(unorm2_getNFCInstance)(__VA_ARGS__)
#undef unorm2_normalize
#define unorm2_normalize(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(unorm2_normalize)(__VA_ARGS__)
#undef ubrk_open
#define ubrk_open(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ubrk_open)(__VA_ARGS__)
#undef ubrk_setUText
#define ubrk_setUText(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ubrk_setUText)(__VA_ARGS__)
#undef ubrk_close
#define ubrk_close(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ubrk_close)(__VA_ARGS__)
#undef ubrk_first
#define ubrk_first(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ubrk_first)(__VA_ARGS__)
#undef ubrk_next
#define ubrk_next(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ubrk_next)(__VA_ARGS__)
#undef ucnv_open
#define ucnv_open(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ucnv_open)(__VA_ARGS__)
#undef ucnv_close
#define ucnv_close(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ucnv_close)(__VA_ARGS__)
#undef ucnv_convertEx
#define ucnv_convertEx(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(ucnv_convertEx)(__VA_ARGS__)
#undef utext_openUTF8
#define utext_openUTF8(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(utext_openUTF8)(__VA_ARGS__)
#undef utext_close
#define utext_close(...) cd_icu()->U_ICU_ENTRY_POINT_RENAME(utext_close)(__VA_ARGS__)
#endif

_Static_assert(CD_ICU_SUCCESS == U_ZERO_ERROR, "CD_ICU_SUCCESS");
_Static_assert(CD_ICU_BUFFER_OVERFLOW == U_BUFFER_OVERFLOW_ERROR,
               "CD_ICU_BUFFER_OVERFLOW");
_Static_assert(CD_ICU_INVALID_CHAR_FOUND == U_INVALID_CHAR_FOUND,
               "CD_ICU_INVALID_CHAR_FOUND");
_Static_assert(CD_ICU_ILLEGAL_ARGUMENT == U_ILLEGAL_ARGUMENT_ERROR,
               "CD_ICU_ILLEGAL_ARGUMENT");

static int cd_is_valid_scalar(uint32_t cp) {
  return cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

int32_t cd_decimal_digit_value(uint32_t codepoint) {
  if (!cd_is_valid_scalar(codepoint)) {
    return -1;
  }
  UChar32 c = (UChar32)codepoint;
  if (u_charType(c) != U_DECIMAL_DIGIT_NUMBER) {
    return -1;
  }
  int32_t value = u_charDigitValue(c);
  return (value >= 0 && value <= 9) ? value : -1;
}

int32_t cd_is_control_or_format(uint32_t codepoint) {
  if (!cd_is_valid_scalar(codepoint)) {
    return 0;
  }
  // ZERO WIDTH JOINER keeps emoji ZWJ sequences; ZERO WIDTH NON-JOINER is
  // part of correct Persian and Indic spelling. Neither reorders text.
  if (codepoint == 0x200D || codepoint == 0x200C) {
    return 0;
  }
  if ((codepoint >= 0xFE00 && codepoint <= 0xFE0F) ||
      (codepoint >= 0xE0100 && codepoint <= 0xE01EF)) {  // variation selectors
    return 0;
  }
  int8_t type = u_charType((UChar32)codepoint);
  return (type == U_CONTROL_CHAR || type == U_FORMAT_CHAR) ? 1 : 0;
}

int32_t cd_is_whitespace(uint32_t codepoint) {
  if (!cd_is_valid_scalar(codepoint)) {
    return 0;
  }
  return u_isUWhiteSpace((UChar32)codepoint) ? 1 : 0;
}

int32_t cd_nfc_utf8(const char *src, int32_t srcLength,
                    char *dest, int32_t destCapacity, int32_t *errorCode) {
  if (errorCode == NULL) {
    return -1;
  }
  if (srcLength < 0 || destCapacity < 0 || (src == NULL && srcLength > 0) ||
      (dest == NULL && destCapacity > 0)) {
    *errorCode = U_ILLEGAL_ARGUMENT_ERROR;
    return -1;
  }
  *errorCode = U_ZERO_ERROR;
  if (srcLength == 0) {
    return 0;
  }

  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfc = unorm2_getNFCInstance(&status);
  if (U_FAILURE(status)) {
    *errorCode = status;
    return -1;
  }

  // UTF-8 -> UTF-16. Invalid UTF-8 fails with U_INVALID_CHAR_FOUND (no
  // substitution character is requested).
  int32_t utf16Length = 0;
  status = U_ZERO_ERROR;
  u_strFromUTF8(NULL, 0, &utf16Length, src, srcLength, &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) {
    *errorCode = status;
    return -1;
  }
  UChar *utf16 = malloc(sizeof(UChar) * (size_t)(utf16Length + 1));
  if (utf16 == NULL) {
    *errorCode = U_MEMORY_ALLOCATION_ERROR;
    return -1;
  }
  status = U_ZERO_ERROR;
  u_strFromUTF8(utf16, utf16Length + 1, NULL, src, srcLength, &status);
  if (U_FAILURE(status)) {
    free(utf16);
    *errorCode = status;
    return -1;
  }

  // Normalize (preflight, then into a buffer of the exact size).
  status = U_ZERO_ERROR;
  int32_t normalizedLength =
      unorm2_normalize(nfc, utf16, utf16Length, NULL, 0, &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) {
    free(utf16);
    *errorCode = status;
    return -1;
  }
  UChar *normalized = malloc(sizeof(UChar) * (size_t)(normalizedLength + 1));
  if (normalized == NULL) {
    free(utf16);
    *errorCode = U_MEMORY_ALLOCATION_ERROR;
    return -1;
  }
  status = U_ZERO_ERROR;
  unorm2_normalize(nfc, utf16, utf16Length, normalized, normalizedLength + 1,
                   &status);
  free(utf16);
  if (U_FAILURE(status)) {
    free(normalized);
    *errorCode = status;
    return -1;
  }

  // UTF-16 -> UTF-8 into the caller's buffer; a too-small buffer reports
  // U_BUFFER_OVERFLOW_ERROR and the needed length. ICU would NUL-terminate
  // when there is room; the caller must rely on the returned length only.
  int32_t utf8Length = 0;
  status = U_ZERO_ERROR;
  u_strToUTF8(dest, destCapacity, &utf8Length, normalized, normalizedLength,
              &status);
  free(normalized);
  if (status == U_STRING_NOT_TERMINATED_WARNING) {
    status = U_ZERO_ERROR;
  }
  *errorCode = status;
  return utf8Length;
}

// Opens a character (grapheme cluster) break iterator over UTF-8 text.
// The caller closes both the iterator and the UText.
static UBreakIterator *cd_open_character_breaks(const char *src,
                                                int32_t srcLength,
                                                UText **textOut) {
  UErrorCode status = U_ZERO_ERROR;
  UText *text = utext_openUTF8(NULL, src, srcLength, &status);
  if (U_FAILURE(status)) {
    return NULL;
  }
  // Grapheme cluster rules are not tailored per locale; use the root locale.
  UBreakIterator *breaks = ubrk_open(UBRK_CHARACTER, "", NULL, 0, &status);
  if (U_FAILURE(status)) {
    utext_close(text);
    return NULL;
  }
  ubrk_setUText(breaks, text, &status);
  if (U_FAILURE(status)) {
    ubrk_close(breaks);
    utext_close(text);
    return NULL;
  }
  *textOut = text;
  return breaks;
}

int32_t cd_grapheme_count_utf8(const char *src, int32_t srcLength) {
  if (srcLength < 0 || (src == NULL && srcLength > 0)) {
    return -1;
  }
  if (srcLength == 0) {
    return 0;
  }
  UText *text = NULL;
  UBreakIterator *breaks = cd_open_character_breaks(src, srcLength, &text);
  if (breaks == NULL) {
    return -1;
  }
  int32_t count = 0;
  ubrk_first(breaks);
  while (ubrk_next(breaks) != UBRK_DONE) {
    count += 1;
  }
  ubrk_close(breaks);
  utext_close(text);
  return count;
}

int32_t cd_grapheme_prefix_utf8(const char *src, int32_t srcLength,
                                int32_t maxGraphemes) {
  if (srcLength < 0 || maxGraphemes < 0 || (src == NULL && srcLength > 0)) {
    return -1;
  }
  // Every grapheme cluster takes at least one byte, so short text fits as is
  // (the common case for labels; it skips opening an iterator).
  if (srcLength <= maxGraphemes) {
    return srcLength;
  }
  if (maxGraphemes == 0) {
    return 0;
  }
  UText *text = NULL;
  UBreakIterator *breaks = cd_open_character_breaks(src, srcLength, &text);
  if (breaks == NULL) {
    return -1;
  }
  int32_t end = ubrk_first(breaks);
  for (int32_t i = 0; i < maxGraphemes; i++) {
    int32_t next = ubrk_next(breaks);
    if (next == UBRK_DONE) {
      break;
    }
    end = next;
  }
  ubrk_close(breaks);
  utext_close(text);
  return end;
}

// Legacy character set -> UTF-8, through a UTF-16 pivot kept between calls
// (ucnv_convertEx), so that sequences cut at a piece boundary survive.
#define CD_PIVOT_CAPACITY 1024

struct cd_transcoder {
  UConverter *source;
  UConverter *utf8;
  UChar pivot[CD_PIVOT_CAPACITY];
  UChar *pivotSource;
  UChar *pivotTarget;
  int started;
};

cd_transcoder *cd_transcoder_open(const char *name, int32_t *errorCode) {
  if (name == NULL || name[0] == '\0') {
    *errorCode = U_ILLEGAL_ARGUMENT_ERROR;
    return NULL;
  }
  UErrorCode status = U_ZERO_ERROR;
  UConverter *source = ucnv_open(name, &status);
  if (U_FAILURE(status) || source == NULL) {
    *errorCode = U_FAILURE(status) ? status : U_ILLEGAL_ARGUMENT_ERROR;
    return NULL;
  }
  UConverter *utf8 = ucnv_open("UTF-8", &status);
  if (U_FAILURE(status) || utf8 == NULL) {
    ucnv_close(source);
    *errorCode = U_FAILURE(status) ? status : U_ILLEGAL_ARGUMENT_ERROR;
    return NULL;
  }
  cd_transcoder *transcoder = calloc(1, sizeof(cd_transcoder));
  if (transcoder == NULL) {
    ucnv_close(source);
    ucnv_close(utf8);
    *errorCode = U_MEMORY_ALLOCATION_ERROR;
    return NULL;
  }
  transcoder->source = source;
  transcoder->utf8 = utf8;
  transcoder->pivotSource = transcoder->pivot;
  transcoder->pivotTarget = transcoder->pivot;
  *errorCode = U_ZERO_ERROR;
  return transcoder;
}

int32_t cd_transcoder_convert(cd_transcoder *transcoder, const uint8_t *src,
                              int32_t srcLength, int32_t *consumed,
                              uint8_t *dest, int32_t destCapacity,
                              int32_t *produced, int32_t flush) {
  *consumed = 0;
  *produced = 0;
  if (transcoder == NULL || srcLength < 0 || destCapacity < 0 ||
      (src == NULL && srcLength > 0) || (dest == NULL && destCapacity > 0)) {
    return U_ILLEGAL_ARGUMENT_ERROR;
  }
  const char *source = (const char *)src;
  const char *sourceStart = source;
  char *target = (char *)dest;
  char *targetStart = target;
  UErrorCode status = U_ZERO_ERROR;
  ucnv_convertEx(transcoder->utf8, transcoder->source, &target,
                 target + destCapacity, &source, source + srcLength,
                 transcoder->pivot, &transcoder->pivotSource,
                 &transcoder->pivotTarget, transcoder->pivot + CD_PIVOT_CAPACITY,
                 transcoder->started ? 0 : 1, flush ? 1 : 0, &status);
  transcoder->started = 1;
  *consumed = (int32_t)(source - sourceStart);
  *produced = (int32_t)(target - targetStart);
  return U_FAILURE(status) ? status : U_ZERO_ERROR;
}

void cd_transcoder_close(cd_transcoder *transcoder) {
  if (transcoder == NULL) {
    return;
  }
  ucnv_close(transcoder->source);
  ucnv_close(transcoder->utf8);
  free(transcoder);
}
