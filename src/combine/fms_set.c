/* The members of a set, listed as FRE-NCtools' mppnccombine lists them: the
 * inputs named, verbatim; else output.NNNN from -n (4 digits, or 6 when the
 * first is found so), up to -e or to the first member's NumFilesInSet.  A set
 * that does not record its size (NumFilesInSet 0 or none), without -e: every
 * numbered member found, which must then tile the domain (fms_header.c);
 * mppnccombine takes the first alone. */
#include "fms_combine.h"

#include <dirent.h>
#include <errno.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

static void add(fms_set *s, const char *path, int present)
{
    s->mem = realloc(s->mem, (size_t)(s->nmem + 1) * sizeof *s->mem);
    if (!s->mem) {
        fprintf(stderr, "Error: cannot allocate enough memory!\n");
        exit(1);
    }
    fms_member *m = &s->mem[s->nmem++];
    memset(m, 0, sizeof *m);
    m->path = strdup(path);
    m->present = present;
    m->ncid = -1;
}

/* NumFilesInSet of a member (FMS_UNREAD_COUNT when it cannot be opened; a file
 * that is not a regular one is not opened: a FIFO would never answer). */
static int files_in_set(const char *path)
{
    int id;
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || nc_open(path, NC_NOWRITE, &id) != NC_NOERR)
        return FMS_UNREAD_COUNT;
    int n = fms_files_in_set(id);
    nc_close(id);
    return n;
}

static int missing_member(const char *path)
{
    struct stat sb;
    int err = stat(path, &sb) == 0 ? 0 : errno;
    printf("ERROR: missing at least %s from the input file set.  Exiting.\n", path);
    fflush(stdout);
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {      /* the name is there: say why it is no file */
        char to[4096] = "";
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 0] = '\0';
        fprintf(stderr, "Error: input file \"%s\" is a symbolic link to \"%s\", which %s\n", path, to,
                err == ELOOP ? "leads back to itself (a loop of links)" : "does not exist");
    }
    return 9;
}

/* output.NNNN at number a, the width found from the first member that exists. */
static int numbered(fms_set *s, int a, char *buf, size_t len)
{
    if (s->width == 0) {
        snprintf(buf, len, "%s.%04d", s->output, a);
        if (exists(buf)) s->width = 4;
        else {
            snprintf(buf, len, "%s.%06d", s->output, a);
            if (!exists(buf)) return 0;
            s->width = 6;
        }
    }
    snprintf(buf, len, "%s.%0*d", s->output, s->width, a);
    return 1;
}

static int list_named(fms_set *s, const fms_opts *o)
{
    for (int i = 0; i < o->ninputs; i++) {
        int p = exists(o->inputs[i]);
        if (!p && !o->force) return missing_member(o->inputs[i]);
        add(s, o->inputs[i], p);
    }
    return 0;
}

/* output.NNNN from a to b: numbers before the first found are skipped (-e),
 * a missing one after it is mppnccombine's status 9 (-f: listed as missing);
 * the list stops at the first member's NumFilesInSet members. */
static int list_range(fms_set *s, const fms_opts *o, int a0, int a1, int want)
{
    char name[4200];
    for (int a = a0; a <= a1; a++) {
        if (!numbered(s, a, name, sizeof name)) continue;
        int p = exists(name);
        if (!p && !o->force) return missing_member(name);
        add(s, name, p);
        if (s->nmem == 1 && want == FMS_NO_COUNT) want = files_in_set(name);
        if (want > 0 && s->nmem == want) break;
    }
    return 0;
}

typedef struct numbered_file {
    long number;
    int width;
} numbered_file;

static int cmp_numbered(const void *a, const void *b)
{
    const numbered_file *x = a, *y = b;
    return x->number != y->number ? (x->number < y->number ? -1 : 1) : x->width - y->width;
}

/* The members of a set that does not record its size: every output.NNNN (or
 * .NNNNNN, the width of the first found) numbered from -n on in the output's
 * folder, in order of number, gaps in the numbers allowed (a regional
 * diagnostic's files carry the numbers of the PEs that hold the region).  Whether
 * they are the whole set is for their domain_decomposition to tell (fms_cover.c). */
static int list_found(fms_set *s, const fms_opts *o)
{
    char dir[4200], name[4200];
    const char *slash = strrchr(s->output, '/'), *base = slash ? slash + 1 : s->output;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - s->output) + (slash == s->output) : 1,
             slash ? s->output : ".");
    size_t blen = strlen(base);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "Error: cannot list the folder \"%s\" to find the members of %s: %s\n", dir, s->output,
                strerror(errno));
        return 1;
    }
    numbered_file *f = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const char *t = e->d_name;
        if (strncmp(t, base, blen) != 0 || t[blen] != '.') continue;
        size_t w = strspn(t + blen + 1, "0123456789");
        if ((w != 4 && w != 6) || t[blen + 1 + w] != '\0') continue;
        long num = strtol(t + blen + 1, NULL, 10);
        if (num < o->start || (s->width && (int)w != s->width)) continue;
        if (n == cap) {
            numbered_file *g = realloc(f, (cap = cap ? 2 * cap : 64) * sizeof *f);
            if (!g) {
                closedir(d);
                free(f);
                fprintf(stderr, "Error: cannot allocate enough memory!\n");
                return 1;
            }
            f = g;
        }
        f[n++] = (numbered_file){num, (int)w};
    }
    closedir(d);
    if (n) qsort(f, n, sizeof *f, cmp_numbered);      /* none found: f is NULL */
    if (n && !s->width) s->width = f[0].width;
    for (size_t i = 0; i < n; i++)
        if (f[i].width == s->width) {
            snprintf(name, sizeof name, "%s.%0*ld", s->output, s->width, f[i].number);
            add(s, name, 1);
        }
    free(f);
    if (o->verbose && s->nmem)
        printf("  the set's size is not recorded: %d members found, %s to %s\n", s->nmem, s->mem[0].path,
               s->mem[s->nmem - 1].path);
    return 0;
}

void fms_numbers_absent(const fms_set *s, char *out, size_t n)
{
    size_t at = 0;
    int said = 0, more = 0;
    out[0] = '\0';
    if (!s->numbered || s->width == 0) return;
    for (int i = 1; i < s->nmem; i++) {
        size_t l0 = strlen(s->mem[i - 1].path), l1 = strlen(s->mem[i].path);
        long a = strtol(s->mem[i - 1].path + l0 - s->width, NULL, 10), b = strtol(s->mem[i].path + l1 - s->width, NULL, 10);
        for (long k = a + 1; k < b; k++) {
            if (said == 3) {
                more += 1;
                continue;
            }
            at += (size_t)snprintf(out + at, at < n ? n - at : 0, "%s%s.%0*ld", said ? ", " : "", s->output, s->width, k);
            said++;
        }
    }
    if (said && at < n)
        snprintf(out + at, n - at, "%s%.0d%s %s absent among the numbers found", more ? " and " : "", more,
                 more ? " more" : "", said + more == 1 ? "is" : "are");
}

static int list_numbered(fms_set *s, const fms_opts *o)
{
    char name[4200];
    s->numbered = 1;
    int rc = 0;
    if (o->end >= 0) {
        rc = list_range(s, o, o->start, o->end, FMS_NO_COUNT);
    } else if (numbered(s, o->start, name, sizeof name)) {
        int want = files_in_set(name);
        if (FMS_SIZE_UNKNOWN(want)) rc = list_found(s, o);
        else rc = list_range(s, o, o->start, want > 0 ? o->start + want - 1 : o->start, want);
    } else {        /* no member at -n: a set of unknown size may start later */
        rc = list_found(s, o);
        if (!rc && s->nmem && !FMS_SIZE_UNKNOWN(files_in_set(s->mem[0].path))) {
            fprintf(stderr, "Error: no input file %s.%04d (nor .%06d), and %s records its set's size: give the "
                            "number of the set's first member with -n, or name the members\n",
                    s->output, o->start, o->start, s->mem[0].path);
            rc = 1;
        }
    }
    if (rc) return rc;
    if (s->nmem == 0) {
        if (o->end >= 0) fprintf(stderr, "Warning: No input file found in range.\n");
        else
            fprintf(stderr, "Error: no input file: neither %s.%04d nor %s.%06d exists (name the set's output, "
                            "whose members are output.0000, ..., or list the inputs)\n",
                    s->output, o->start, s->output, o->start);
        return 1;
    }
    return 0;
}

/* Each member once: two names of one file would combine it twice. */
static int listed_twice(const fms_set *s)
{
    struct stat *sb = calloc((size_t)s->nmem + 1, sizeof *sb);
    int rc = 0;
    if (!sb) return 0;
    for (int i = 0; i < s->nmem && !rc; i++) {
        if (!s->mem[i].present || stat(s->mem[i].path, &sb[i]) != 0) continue;
        for (int j = 0; j < i && !rc; j++)
            if (s->mem[j].present && sb[j].st_dev == sb[i].st_dev && sb[j].st_ino == sb[i].st_ino) {
                fprintf(stderr, "Error: input file \"%s\" is listed twice (as input %d and, as \"%s\", input %d): "
                                "each member is combined once\n",
                        s->mem[j].path, j + 1, s->mem[i].path, i + 1);
                rc = 1;
            }
    }
    free(sb);
    return rc;
}

int fms_set_list(fms_set *s, const fms_opts *o)
{
    int rc = o->ninputs ? list_named(s, o) : list_numbered(s, o);
    if (!rc) rc = listed_twice(s);
    if (rc) return rc;
    s->first = -1;
    for (int i = 0; i < s->nmem && s->first < 0; i++)
        if (s->mem[i].present) s->first = i;
    for (int i = 0; i < s->nmem; i++)
        if (!s->mem[i].present) {     /* -f: combined without it, its points 0 (or -m's missing_value) */
            fprintf(stderr, "Error: cannot open input file \"%s\"\n", s->mem[i].path);
            s->errors++;
        }
    if (s->first < 0) {
        fprintf(stderr, "Error: none of the %d input files listed exists; nothing to combine\n", s->nmem);
        return 1;
    }
    return 0;
}
