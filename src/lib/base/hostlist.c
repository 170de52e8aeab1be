#include "config.h"
#include "base/hostlist.h"
#include "base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct host_key {
    const char *name;
    size_t plen;        /* prefix length: the name without its trailing digits */
    int width;          /* number of trailing digits, 0 when none */
    long long num;
} host_key;

static int cmp_key(const void *pa, const void *pb)
{
    const host_key *a = pa, *b = pb;
    size_t m = a->plen < b->plen ? a->plen : b->plen;
    int c = strncmp(a->name, b->name, m);
    if (c) return c;
    if (a->plen != b->plen) return a->plen < b->plen ? -1 : 1;
    if (a->width != b->width) return a->width < b->width ? -1 : 1;
    if (a->num != b->num) return a->num < b->num ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int same_group(const host_key *a, const host_key *b)
{
    return a->width > 0 && a->plen == b->plen && a->width == b->width && strncmp(a->name, b->name, a->plen) == 0;
}

/* Append text to out, keeping room for "..." when it does not fit. */
static void put(char *out, size_t len, size_t *pos, int *full, const char *text)
{
    size_t n = strlen(text);
    if (*full) return;
    if (*pos + n + 4 > len) {
        if (len >= 4) snprintf(out + (len - 4 < *pos ? len - 4 : *pos), 4, "...");
        *full = 1;
        return;
    }
    memcpy(out + *pos, text, n + 1);
    *pos += n;
}

int cio_hostlist_compress(const char *const *names, int n, char *out, size_t len)
{
    if (len) out[0] = '\0';
    host_key *k = cio_calloc((size_t)(n > 0 ? n : 1), sizeof *k);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(names[i]), d = l;
        while (d > 0 && isdigit((unsigned char)names[i][d - 1])) d--;
        k[i].name = names[i];
        k[i].plen = d;
        k[i].width = (int)(l - d);
        /* more digits than a long long holds: treat the name as plain text */
        if (k[i].width > 18) {
            k[i].plen = l;
            k[i].width = 0;
        }
        k[i].num = k[i].width ? strtoll(names[i] + d, NULL, 10) : 0;
    }
    qsort(k, (size_t)n, sizeof *k, cmp_key);
    int distinct = 0, full = 0;
    size_t pos = 0;
    for (int i = 0; i < n;) {
        /* skip duplicates */
        if (i > 0 && strcmp(k[i].name, k[i - 1].name) == 0) {
            i++;
            continue;
        }
        if (pos) put(out, len, &pos, &full, ",");
        int j = i + 1;
        while (j < n && same_group(&k[i], &k[j])) j++;
        char buf[512];
        int members = 0;
        for (int m = i; m < j; m++) members += m == i || strcmp(k[m].name, k[m - 1].name) != 0;
        if (members < 2) {
            put(out, len, &pos, &full, k[i].name);
            distinct++;
            i = j;
            continue;
        }
        snprintf(buf, sizeof buf, "%.*s[", (int)k[i].plen, k[i].name);
        put(out, len, &pos, &full, buf);
        int first = 1;
        for (int m = i; m < j;) {
            long long lo = k[m].num, hi = lo;
            int e = m + 1;
            while (e < j && (k[e].num == hi || k[e].num == hi + 1)) hi = k[e++].num;
            for (int q = m; q < e; q++) distinct += q == m || k[q].num != k[q - 1].num;
            if (lo == hi) snprintf(buf, sizeof buf, "%s%0*lld", first ? "" : ",", k[i].width, lo);
            else snprintf(buf, sizeof buf, "%s%0*lld-%0*lld", first ? "" : ",", k[i].width, lo, k[i].width, hi);
            put(out, len, &pos, &full, buf);
            first = 0;
            m = e;
        }
        put(out, len, &pos, &full, "]");
        i = j;
    }
    cio_free(k);
    return distinct;
}
