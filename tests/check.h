/* Minimal assertions for the C unit tests: report file:line and what differed. */
#ifndef CLIMIO_CHECK_H
#define CLIMIO_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                                        \
        }                                                                            \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                      \
    do {                                                                                        \
        long long a_ = (long long)(a), b_ = (long long)(b);                                     \
        if (a_ != b_) {                                                                         \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); \
            check_failures++;                                                                   \
        }                                                                                       \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                                     \
    do {                                                                                                \
        const char *h_ = (hay), *n_ = (needle);                                                         \
        if (!h_ || !strstr(h_, n_)) {                                                                   \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, h_ ? h_ : "(null)", n_); \
            check_failures++;                                                                           \
        }                                                                                               \
    } while (0)

#define CHECK_DONE() (check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1) : 0)
#endif
