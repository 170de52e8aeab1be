/* Host names as compressed ranges: grouping by prefix and digit count, ranges,
 * duplicates, plain names and truncation. */
/* sanitizers: yes */
#include "config.h"
#include "check.h"
#include "base/hostlist.h"

#include <string.h>

static void expect(const char *const *names, int n, const char *want, int distinct)
{
    char out[256];
    int d = cio_hostlist_compress(names, n, out, sizeof out);
    if (strcmp(out, want) != 0) {
        fprintf(stderr, "compressed to '%s', expected '%s'\n", out, want);
        check_failures++;
    }
    CHECK_EQ_INT(d, distinct);
}

int main(void)
{
    const char *one[] = {"vm"};
    expect(one, 1, "vm", 1);
    const char *nid[] = {"nid003", "nid001", "nid002", "nid007", "nid002", "login", "nid010"};
    expect(nid, 7, "login,nid[001-003,007,010]", 6);
    /* a single numbered host keeps its name; different paddings are different groups */
    const char *pad[] = {"n1", "n01", "n2", "x5"};
    expect(pad, 4, "n[1-2],n01,x5", 4);
    const char *dup[] = {"a1", "a1", "a1"};
    expect(dup, 3, "a1", 1);
    expect(NULL, 0, "", 0);
    /* too long for the buffer: cut with "..." */
    const char *many[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"};
    char small[16];
    cio_hostlist_compress(many, 6, small, sizeof small);
    CHECK(strlen(small) < sizeof small);
    CHECK_CONTAINS(small, "...");
    return CHECK_DONE();
}
