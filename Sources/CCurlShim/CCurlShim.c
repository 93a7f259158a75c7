// libcurl, loaded on first use: see include/CCurlShim.h.

#include "CCurlShim.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

// libcurl's entry points, resolved with dlsym.
static struct {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL *handle);
  CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
  void (*easy_cleanup)(CURL *handle);
  const char *(*easy_strerror)(CURLcode code);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
  void (*slist_free_all)(struct curl_slist *list);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int32_t load_status = -1;
static char load_error[256];

// The names libcurl's runtime package installs, most specific first.
#if defined(__APPLE__)
static const char *const library_names[] = {"libcurl.4.dylib", "libcurl.dylib", NULL};
#else
static const char *const library_names[] = {"libcurl.so.4", "libcurl.so", NULL};
#endif

static void *resolve(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (symbol == NULL && load_error[0] == '\0') {
    snprintf(load_error, sizeof load_error, "libcurl has no %s", name);
  }
  return symbol;
}

static void load_library(void) {
  void *library = NULL;
  for (int i = 0; library_names[i] != NULL && library == NULL; i++) {
    library = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(load_error, sizeof load_error, "cannot load libcurl (%s): %s", library_names[0],
             reason != NULL ? reason : "not found");
    return;
  }
  load_error[0] = '\0';
  curl.global_init = (CURLcode(*)(long))resolve(library, "curl_global_init");
  curl.easy_init = (CURL * (*)(void)) resolve(library, "curl_easy_init");
  curl.easy_setopt = (CURLcode(*)(CURL *, CURLoption, ...))resolve(library, "curl_easy_setopt");
  curl.easy_perform = (CURLcode(*)(CURL *))resolve(library, "curl_easy_perform");
  curl.easy_getinfo = (CURLcode(*)(CURL *, CURLINFO, ...))resolve(library, "curl_easy_getinfo");
  curl.easy_cleanup = (void (*)(CURL *))resolve(library, "curl_easy_cleanup");
  curl.easy_strerror = (const char *(*)(CURLcode))resolve(library, "curl_easy_strerror");
  curl.slist_append =
      (struct curl_slist * (*)(struct curl_slist *, const char *)) resolve(library, "curl_slist_append");
  curl.slist_free_all = (void (*)(struct curl_slist *))resolve(library, "curl_slist_free_all");
  if (load_error[0] != '\0') return;
  CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
  if (code != CURLE_OK) {
    snprintf(load_error, sizeof load_error, "cannot initialize libcurl: %s", curl.easy_strerror(code));
    return;
  }
  load_status = 0;
}

int32_t cd_curl_load(char *error, size_t capacity) {
  pthread_once(&load_once, load_library);
  if (load_status != 0 && error != NULL && capacity > 0) snprintf(error, capacity, "%s", load_error);
  return load_status;
}

// What the callbacks need: the request and the handle (for the status).
typedef struct {
  const cd_curl_request *request;
  CURL *handle;
  int32_t aborted;
} transfer_state;

static size_t on_header(char *line, size_t size, size_t count, void *userdata) {
  transfer_state *state = userdata;
  size_t length = size * count;
  if (state->request->on_header(line, length, state->request->context) != 0) {
    state->aborted = 1;
    return 0;
  }
  return length;
}

static size_t on_body(char *bytes, size_t size, size_t count, void *userdata) {
  transfer_state *state = userdata;
  size_t length = size * count;
  long status = 0;
  curl.easy_getinfo(state->handle, CURLINFO_RESPONSE_CODE, &status);
  if (state->request->on_body((const uint8_t *)bytes, length, (int64_t)status, state->request->context) != 0) {
    state->aborted = 1;
    return 0;
  }
  return length;
}

static void fail(cd_curl_result *result, int32_t code, const char *message) {
  result->code = code;
  snprintf(result->message, sizeof result->message, "%s", message);
}

void cd_curl_get(const cd_curl_request *request, cd_curl_result *result) {
  memset(result, 0, sizeof *result);
  if (load_status != 0) {
    fail(result, CURLE_FAILED_INIT, "libcurl is not loaded");
    return;
  }
  CURL *handle = curl.easy_init();
  if (handle == NULL) {
    fail(result, CURLE_FAILED_INIT, "cannot create a libcurl handle");
    return;
  }
  struct curl_slist *headers = curl.slist_append(NULL, "Accept-Encoding: identity");
  char range[96];
  if (headers != NULL && request->range != NULL) {
    snprintf(range, sizeof range, "Range: %s", request->range);
    struct curl_slist *more = curl.slist_append(headers, range);
    if (more == NULL) {
      curl.slist_free_all(headers);
      headers = NULL;
    } else {
      headers = more;
    }
  }
  if (headers == NULL) {
    curl.easy_cleanup(handle);
    fail(result, CURLE_OUT_OF_MEMORY, "out of memory");
    return;
  }

  transfer_state state = {request, handle, 0};
  char detail[CURL_ERROR_SIZE];
  detail[0] = '\0';
  long seconds = request->timeout_seconds > 0 ? (long)request->timeout_seconds : 1;
  CURLcode code = CURLE_OK;
  // Every option is checked: a libcurl that lacks one fails the request
  // rather than run it with other rules.
#define SET(option, value)                                   \
  if (code == CURLE_OK) code = curl.easy_setopt(handle, option, value)
  SET(CURLOPT_ERRORBUFFER, detail);
  SET(CURLOPT_URL, request->url);
  SET(CURLOPT_NOSIGNAL, 1L);
  SET(CURLOPT_NOPROGRESS, 1L);
  SET(CURLOPT_HTTPGET, 1L);
  SET(CURLOPT_HTTPHEADER, headers);
  SET(CURLOPT_USERAGENT, "calldir");
  SET(CURLOPT_FOLLOWLOCATION, 1L);
  SET(CURLOPT_MAXREDIRS, (long)request->max_redirects);
  SET(CURLOPT_CONNECTTIMEOUT, seconds);
  // Under the minimum rate for `seconds` seconds: a stalled or dripping server.
  SET(CURLOPT_LOW_SPEED_LIMIT, request->minimum_rate > 0 ? (long)request->minimum_rate : 1L);
  SET(CURLOPT_LOW_SPEED_TIME, seconds);
  // The whole transfer, however the server paces its bytes.
  SET(CURLOPT_TIMEOUT_MS, request->deadline_milliseconds <= 0          ? 1L
                          : request->deadline_milliseconds > LONG_MAX ? LONG_MAX
                                                                      : (long)request->deadline_milliseconds);
  SET(CURLOPT_HEADERFUNCTION, on_header);
  SET(CURLOPT_HEADERDATA, &state);
  SET(CURLOPT_WRITEFUNCTION, on_body);
  SET(CURLOPT_WRITEDATA, &state);
#undef SET
  if (code == CURLE_OK) {
    // http and https only, for the first request and every redirect.
    code = curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code == CURLE_OK) code = curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  }
  if (code == CURLE_OK) code = curl.easy_perform(handle);

  long status = 0;
  curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  result->status = status;
  result->aborted = state.aborted;
  result->timed_out = code == CURLE_OPERATION_TIMEDOUT;
  result->code = (int32_t)code;
  if (code != CURLE_OK) {
    const char *text = detail[0] != '\0' ? detail : curl.easy_strerror(code);
    snprintf(result->message, sizeof result->message, "%s", text != NULL ? text : "transfer failed");
  }
  curl.easy_cleanup(handle);
  curl.slist_free_all(headers);
}
