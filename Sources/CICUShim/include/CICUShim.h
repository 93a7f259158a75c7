// CICUShim: the few ICU4C calls calldir needs, behind plain C types.
//
// This header must never include <unicode/*.h>: Swift would then import ICU's
// enums next to Foundation's private copy (_FoundationICU) and fail to build,
// and without Foundation it would only see the versioned names (u_foo_72).
// ICU is included by CICUShim.c alone, where the renaming macros work.
//
// All strings are UTF-8 with an explicit byte length (embedded NUL bytes are
// allowed); all lengths and counts are int32_t like ICU's own.

#ifndef CICUSHIM_H
#define CICUSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// ICU status: success (U_ZERO_ERROR). Warnings are negative, failures positive.
#define CD_ICU_SUCCESS 0
/// ICU status: the output buffer was too small (U_BUFFER_OVERFLOW_ERROR).
#define CD_ICU_BUFFER_OVERFLOW 15
/// ICU status: the input had an invalid or unpaired sequence (U_INVALID_CHAR_FOUND).
#define CD_ICU_INVALID_CHAR_FOUND 10
/// ICU status: an argument was out of range (U_ILLEGAL_ARGUMENT_ERROR).
#define CD_ICU_ILLEGAL_ARGUMENT 1

/// Returns the value 0-9 of a code point whose general category is Nd
/// (decimal digit, any script), or -1 for anything else, including other
/// numerics such as U+00B2 SUPERSCRIPT TWO (No) and invalid code points.
int32_t cd_decimal_digit_value(uint32_t codepoint);

/// Returns 1 if the code point should be removed from display text, else 0.
///
/// That is general category Cc (controls) or Cf (format characters: bidi
/// marks and embeddings/isolates, zero-width space, BOM, tag characters...),
/// with one exception: U+200D ZERO WIDTH JOINER returns 0, because it glues
/// emoji ZWJ sequences (family, profession, flag variants). Variation
/// selectors (U+FE00-FE0F, U+E0100-E01EF) are Mn, not Cf, so they return 0
/// as well (checked explicitly, so emoji presentation selectors survive even
/// if a future Unicode version re-categorizes them).
int32_t cd_is_control_or_format(uint32_t codepoint);

/// Returns 1 if the code point has the Unicode White_Space property (tab,
/// newline, NBSP, U+2028, U+3000, ...), else 0.
int32_t cd_is_whitespace(uint32_t codepoint);

/// Normalizes UTF-8 text to NFC.
///
/// Preflight pattern: returns the byte length of the full result (without a
/// terminating NUL) even when it does not fit; writes at most destCapacity
/// bytes to dest (which may be NULL when destCapacity is 0) and never
/// NUL-terminates. *errorCode receives CD_ICU_SUCCESS (or an ICU warning,
/// <= 0), CD_ICU_BUFFER_OVERFLOW if destCapacity was too small, or another
/// positive ICU error (CD_ICU_INVALID_CHAR_FOUND for invalid UTF-8).
int32_t cd_nfc_utf8(const char *src, int32_t srcLength,
                    char *dest, int32_t destCapacity, int32_t *errorCode);

/// Returns the number of extended grapheme clusters (user-perceived
/// characters) in UTF-8 text, or -1 if ICU fails.
int32_t cd_grapheme_count_utf8(const char *src, int32_t srcLength);

/// Returns the byte length of the longest prefix of UTF-8 text that holds at
/// most maxGraphemes extended grapheme clusters (never splitting one), or -1
/// if ICU fails or an argument is negative.
int32_t cd_grapheme_prefix_utf8(const char *src, int32_t srcLength,
                                int32_t maxGraphemes);


/// A converter from a legacy character set to UTF-8, for streaming (opaque).
typedef struct cd_transcoder cd_transcoder;

/// Opens a converter from the character set `name` to UTF-8.
///
/// `name` is NUL-terminated ASCII: an ICU converter name or alias, matched
/// case-insensitively and ignoring '-' and '_' ("ISO-8859-1", "latin1",
/// "Windows-1252", "cp1252", ...). Returns NULL for an empty or unknown name,
/// with a positive ICU error in *errorCode. Close it with
/// cd_transcoder_close.
cd_transcoder *cd_transcoder_open(const char *name, int32_t *errorCode);

/// Converts the next piece of input to UTF-8, keeping state across calls:
/// a multibyte sequence cut at the end of one piece is completed by the
/// next one. Bytes the character set does not map become U+FFFD (or its
/// substitution character).
///
/// Reads at most srcLength bytes of src and writes at most destCapacity
/// bytes to dest; *consumed and *produced receive the counts. Pass flush = 1
/// with the last piece (srcLength may then be 0). Returns CD_ICU_SUCCESS
/// when all of src was consumed, CD_ICU_BUFFER_OVERFLOW when dest filled up
/// first (call again with the rest), or another positive ICU error
/// (U_TRUNCATED_CHAR_FOUND when the input ends inside a sequence).
int32_t cd_transcoder_convert(cd_transcoder *transcoder, const uint8_t *src,
                              int32_t srcLength, int32_t *consumed,
                              uint8_t *dest, int32_t destCapacity,
                              int32_t *produced, int32_t flush);

/// Closes a converter opened by cd_transcoder_open (NULL is ignored).
void cd_transcoder_close(cd_transcoder *transcoder);

#ifdef __cplusplus
}
#endif

#endif
