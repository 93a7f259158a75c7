// OpenSSL's libcrypto, for SHA-256 only (its EVP interface, which runs on
// the CPU's SHA extensions where there are any).
#include <openssl/evp.h>
