/* The members of a set, open while they are read: both of mom_combine's forms
 * (the default form's netCDF-C or raw members, fms_pool.c; --mom5's engine
 * files, mom_combine_set.c) open a member when they read from it and call done
 * after.  A rank keeps open, from one use to the next, at most as many members
 * as its free file descriptors allow (256 at most); heavy members (netCDF-4:
 * HDF5 holds about 1 MiB of caches per open file) only when all of them can (32
 * at most), since a few kept among many save few openings and hold their
 * caches.  Every other member is closed when done, so descriptors and memory
 * stay bounded whatever the member count, and a set that fits is opened once. */
#ifndef MEMBER_POOL_H
#define MEMBER_POOL_H

#include <stddef.h>

typedef struct member_pool {
    int n;
    unsigned char *pinned;              /* per member: kept open once opened */
    int (*open)(void *ctx, int i);      /* open member i unless it is: 0, or 1 after saying why */
    void (*close)(void *ctx, int i);    /* close member i if it is open */
    void *ctx;
} member_pool;

/* wanted[i]: this rank reads member i; heavy[i] (NULL: none): it holds caches
 * while open.  Returns 0, or 1 when memory ran out (the pool then keeps none
 * open: each member is opened when read and closed after). */
int member_pool_init(member_pool *p, int n, const unsigned char *wanted, const unsigned char *heavy,
                     int (*open)(void *, int), void (*close)(void *, int), void *ctx);
int member_pool_open(member_pool *p, int i);
void member_pool_done(member_pool *p, int i);   /* closed unless pinned */
void member_pool_close_all(member_pool *p);     /* and the pool freed */

/* Running out of descriptors: whether errno err (or a library's status st that
 * carries it) says so, and the words for it ("out of file descriptors: ulimit
 * -n is 64 and 63 are open"). */
int member_pool_no_fds(int err);
void member_pool_fds_words(char *out, size_t n);
/* Descriptors this process may still open (-1: cannot tell). */
long member_pool_fds_left(void);

#endif
