// CCurlShim: one HTTP(S) GET through libcurl, loaded with dlopen on first use.
//
// calldir fetches over HTTP in a single command (`device sync --from
// http(s)://...`), so it does not link libcurl: linking it made every start
// of every command load and relocate libcurl and the thirty libraries it
// needs (TLS, Kerberos, LDAP...). This target loads libcurl.so.4 the first
// time a transfer runs, and wraps the calls Swift cannot make (the variadic
// curl_easy_setopt and curl_easy_getinfo).
//
// This header uses plain C types only and never includes <curl/curl.h>:
// CCurlShim.c alone sees curl's declarations, for their constants and types.

#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads libcurl and initializes it, once per process; later calls return
/// the first call's result. Thread-safe.
///
/// Returns 0 when libcurl is ready, else -1 with a message (why dlopen or
/// dlsym failed) in `error` (always NUL-terminated when `capacity > 0`).
int32_t cd_curl_load(char *error, size_t capacity);

/// Called with each header line of each response (redirects included), as
/// received: the status line, `Name: value` lines and the blank line that
/// ends the header, each with its CR LF. Return 0 to go on, 1 to abort.
typedef int32_t (*cd_curl_header_callback)(const char *line, size_t length, void *context);

/// Called with each piece of the final response's body and the response's
/// HTTP status code. Return 0 to go on, 1 to abort the transfer.
typedef int32_t (*cd_curl_body_callback)(const uint8_t *bytes, size_t length, int64_t status, void *context);

/// What one GET asks for.
typedef struct {
  /// The absolute http:// or https:// URL, NUL-terminated.
  const char *url;
  /// The value of a `Range` header (`bytes=N-`), or NULL for none.
  const char *range;
  /// Seconds allowed to connect, and the window over which the transfer
  /// must keep `minimum_rate`.
  int64_t timeout_seconds;
  /// The slowest rate accepted, in bytes a second: a transfer that moves
  /// less for `timeout_seconds` seconds fails (a server that stalls or
  /// drips bytes).
  int64_t minimum_rate;
  /// Milliseconds the whole transfer may take, redirects included.
  int64_t deadline_milliseconds;
  /// The most redirects (301, 302, 303, 307, 308) followed, to http or
  /// https only; another one fails the transfer.
  int64_t max_redirects;
  cd_curl_header_callback on_header;
  cd_curl_body_callback on_body;
  void *context;
} cd_curl_request;

/// The outcome of ``cd_curl_get``.
typedef struct {
  /// 0 when the transfer completed; a libcurl error code (CURLcode) else.
  int32_t code;
  /// Whether a callback aborted the transfer (then `code` is nonzero).
  int32_t aborted;
  /// Whether the transfer failed on a time limit: the connect timeout, the
  /// minimum rate or the deadline (CURLE_OPERATION_TIMEDOUT).
  int32_t timed_out;
  /// The last response's HTTP status code, 0 if none arrived.
  int64_t status;
  /// Why the transfer failed, NUL-terminated; empty when it completed.
  char message[512];
} cd_curl_result;

/// Runs one blocking GET on the calling thread: no cache, no content
/// decoding (`Accept-Encoding: identity`), no signals.
/// - Precondition: ``cd_curl_load`` returned 0.
void cd_curl_get(const cd_curl_request *request, cd_curl_result *result);

#ifdef __cplusplus
}
#endif

#endif
