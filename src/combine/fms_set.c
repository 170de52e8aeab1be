/* The members of a set, listed as FRE-NCtools' mppnccombine lists them: the
 * inputs named, verbatim; else output.NNNN from -n (4 digits, or 6 when the
 * first is found so), up to -e or to the first member's NumFilesInSet. */
#include "fms_combine.h"

#include <errno.h>
#include <limits.h>
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

/* NumFilesInSet of a member: FMS_NO_COUNT when it has none (or not one integer),
 * FMS_UNREAD when the file cannot be opened (its header check says why); a file
 * that is not a regular one is not opened: a FIFO would never answer. */
#define FMS_NO_COUNT INT_MIN
#define FMS_UNREAD (INT_MIN + 1)
static int files_in_set(const char *path)
{
    int id, n = FMS_NO_COUNT;
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || nc_open(path, NC_NOWRITE, &id) != NC_NOERR)
        return FMS_UNREAD;
    nc_type t;
    size_t len;
    if (nc_inq_att(id, NC_GLOBAL, "NumFilesInSet", &t, &len) != NC_NOERR || len != 1 ||
        nc_get_att_int(id, NC_GLOBAL, "NumFilesInSet", &n) != NC_NOERR)
        n = FMS_NO_COUNT;
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

static int list_numbered(fms_set *s, const fms_opts *o)
{
    char name[4200];
    s->numbered = 1;
    int end = o->end, want = -1;
    for (int a = o->start; end < 0 ? a <= o->start + (want > 0 ? want - 1 : 0) : a <= end; a++) {
        if (!numbered(s, a, name, sizeof name)) {
            if (end < 0) break;
            continue;       /* -e: members before the first found are skipped */
        }
        int p = exists(name);
        if (!p && !o->force) return missing_member(name);
        add(s, name, p);
        if (s->nmem == 1) {
            want = files_in_set(name);
            /* FMS writes 0 for a regional output, whose members are numbered by PE:
             * they are combined when named (or with -e), as mppnccombine does */
            if (want != FMS_NO_COUNT && want != FMS_UNREAD && (want < 0 || (want == 0 && end < 0))) {
                fprintf(stderr, "Error: input file \"%s\": NumFilesInSet is %d, so the members to combine cannot be "
                                "counted from it%s: name them (mom_combine OUTPUT %s.*), or give -e\n",
                        name, want, want == 0 ? " (FMS writes 0 for a regional output, whose members are numbered "
                                                "by PE)" : "", s->output);
                return 1;
            }
        }
        if (want > 0 && s->nmem == want) break;
    }
    if (want == FMS_NO_COUNT && end < 0 && s->nmem == 1) {
        /* mppnccombine combines the first member alone; when the next one is there, the
         * attribute is what is missing, not the members */
        char next[4200];
        snprintf(next, sizeof next, "%s.%0*d", s->output, s->width, o->start + 1);
        if (exists(next)) {
            fprintf(stderr, "Error: input file \"%s\" has no NumFilesInSet, so the members to combine cannot be "
                            "counted from it, and %s is there too (FRE-NCtools' mppnccombine would combine the first "
                            "alone): name them (mom_combine OUTPUT %s.*), or give -e\n",
                    s->mem[0].path, next, s->output);
            return 1;
        }
    }
    if (s->nmem == 0) {
        if (end >= 0) fprintf(stderr, "Warning: No input file found in range.\n");
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
