// The system's OpenSSL (libssl 3), as AppFlipTLS uses it: the headers, and the few of its macros and variadic
// functions Swift cannot call, as functions. No TLS code of our own: each line below calls OpenSSL.
#ifndef APPFLIP_COPENSSL_SHIM_H
#define APPFLIP_COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/bio.h>

/// SNI: the host name a client names in its ClientHello (a macro over SSL_ctrl).
static inline int appflip_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// The lowest and highest protocol versions a context speaks (macros over SSL_CTX_ctrl).
static inline int appflip_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

static inline int appflip_SSL_CTX_set_max_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_max_proto_version(context, version);
}

/// Partial writes allowed and the write buffer free to move between retries (a macro over SSL_CTX_ctrl).
static inline long appflip_SSL_CTX_set_partial_write_modes(SSL_CTX *context) {
    return SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// A P-256 key (EVP_EC_gen is a macro over the variadic EVP_PKEY_Q_keygen).
static inline EVP_PKEY *appflip_EVP_EC_gen_P256(void) {
    return EVP_EC_gen("P-256");
}

/// What a memory BIO holds (a macro over BIO_ctrl).
static inline long appflip_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/// Frees what OpenSSL allocated (a macro over CRYPTO_free).
static inline void appflip_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

/// A distinguished name written unambiguously (RFC 4514 escaping: `,` `+` `"` `\` `<` `>` `;` and a leading `#` or
/// space escaped with a backslash, control bytes as `\XX`), in the certificate's order, ", " between entries, UTF-8
/// kept readable (no `\XX` for non-ASCII). Returns the bytes written to `bio`, or -1.
static inline int appflip_X509_NAME_print_rfc4514(BIO *bio, const X509_NAME *name) {
    unsigned long flags = ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT | ASN1_STRFLGS_DUMP_UNKNOWN
        | ASN1_STRFLGS_DUMP_DER | XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN;
    return X509_NAME_print_ex(bio, name, 0, flags);
}

/// The certificates of a chain (macros over OPENSSL_sk_num and OPENSSL_sk_value).
static inline int appflip_sk_X509_num(const STACK_OF(X509) *chain) { return sk_X509_num(chain); }
static inline X509 *appflip_sk_X509_value(const STACK_OF(X509) *chain, int index) { return sk_X509_value(chain, index); }

/// The reason part of an OpenSSL error code (a macro in some versions).
static inline int appflip_ERR_GET_REASON(unsigned long code) { return ERR_GET_REASON(code); }
static inline int appflip_SSL_R_UNEXPECTED_EOF_WHILE_READING(void) { return SSL_R_UNEXPECTED_EOF_WHILE_READING; }

/// The constants Swift does not import (they are macros of expressions).
static inline int appflip_TLS1_VERSION(void) { return TLS1_VERSION; }
static inline int appflip_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline int appflip_TLS1_3_VERSION(void) { return TLS1_3_VERSION; }
static inline unsigned long appflip_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline unsigned long appflip_SSL_OP_IGNORE_UNEXPECTED_EOF(void) { return SSL_OP_IGNORE_UNEXPECTED_EOF; }
static inline int appflip_MBSTRING_ASC(void) { return MBSTRING_ASC; }

#endif
