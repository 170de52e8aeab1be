/* PIO's text decomposition format, "version 2001" (PIOc_writemap / pio_writedof,
 * read by PIOc_readmap / pio_readdof, pioperf and E3SM-IO's dat2nc):
 *
 *     version 2001 npes N ndims D
 *     g1 g2 ... gD                 (Fortran order from E3SM/SCORPIO, C order from PIOc_write_decomp)
 *     t L                          (t = 0 .. N-1)
 *     m1 m2 ... mL                 (1-based linear indices; <= 0: a hole)
 *
 * The reader tokenises on white space as PIO does (line breaks carry no meaning),
 * checks what PIO checks (version, task count, task ids in sequence) and what it
 * should (positive lengths, entries inside the array, truncation), and ignores
 * whatever follows the last task's map (PIO's blank line and stack trace,
 * SCORPIO's ioid line).  The writer produces PIO2's bytes without the trace. */
#include "config.h"
#include "dmap_impl.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct text_state {
    FILE *fp;
    int64_t line;           /* line of the next character */
    int64_t tok_line;       /* line of the last token */
    int64_t next_task;      /* the task whose id comes next */
    long data_pos;          /* file position after the header */
    int64_t data_line;
    int64_t elems;
    int64_t last_len, last_len_line;    /* the previous task's map length and its line */
} text_state;

/* The next white-space separated token: 0, 1 at end of file, -1 if too long. */
static int next_tok(text_state *s, char *buf, size_t len)
{
    int c;
    while ((c = getc(s->fp)) != EOF && isspace(c))
        if (c == '\n') s->line++;
    if (c == EOF) return 1;
    s->tok_line = s->line;
    size_t n = 0;
    while (c != EOF && !isspace(c)) {
        if (n + 1 < len) buf[n] = (char)c;
        n++;
        c = getc(s->fp);
    }
    if (c == '\n') s->line++;
    buf[n < len ? n : len - 1] = 0;
    return n < len ? 0 : -1;
}

/* An integer token; messages name the file, the line and what was expected. */
static int next_int(dmap_file *f, text_state *s, const char *what, int64_t *v, cio_err *e)
{
    char tok[64];
    int rc = next_tok(s, tok, sizeof tok);
    if (rc == 1) return cio_seterr(e, "%s:%lld: the file ends where %s was expected (truncated?)", f->path,
                                   (long long)s->line, what);
    char *end;
    errno = 0;
    long long x = strtoll(tok, &end, 10);
    if (rc == 0 && *tok && !*end && errno == ERANGE)
        return cio_seterr(e, "%s:%lld: %s is %s, out of range (a 64-bit integer holds at most %lld)", f->path,
                          (long long)s->tok_line, what, tok, (long long)INT64_MAX);
    if (rc != 0 || *end || end == tok || errno)
        return cio_seterr(e, "%s:%lld: expected %s (an integer), found \"%s%s\"", f->path, (long long)s->tok_line, what,
                          tok, rc != 0 ? "..." : "");
    *v = x;
    return 0;
}

static int expect_word(dmap_file *f, text_state *s, const char *word, cio_err *e)
{
    char tok[64];
    int rc = next_tok(s, tok, sizeof tok);
    if (rc == 1) return cio_seterr(e, "%s:%lld: the file ends where \"%s\" was expected", f->path, (long long)s->line, word);
    if (strcmp(tok, word) != 0)
        return cio_seterr(e, "%s:%lld: expected \"%s\" (PIO text decomposition: \"version 2001 npes N ndims D\"), "
                             "found \"%s\"", f->path, (long long)s->tok_line, word, tok);
    return 0;
}

static int text_header(dmap_file *f, text_state *s, cio_err *e)
{
    int64_t v, n, d;
    s->line = 1;
    if (expect_word(f, s, "version", e) || next_int(f, s, "the version number", &v, e)) return -1;
    if (v != 2001)
        return cio_seterr(e, "%s:%lld: version %lld is not supported: PIO and SCORPIO read version 2001 only%s", f->path,
                          (long long)s->tok_line, (long long)v,
                          v == 1001 ? " (1001 is PIO1's layout, without ndims and dimension lengths)" : "");
    if (expect_word(f, s, "npes", e) || next_int(f, s, "the number of tasks", &n, e)) return -1;
    if (n < 1 || n > INT32_MAX)
        return cio_seterr(e, "%s:%lld: npes %lld: expected at least 1 task", f->path, (long long)s->tok_line,
                          (long long)n);
    /* every task takes at least "t L" and a line break: a count beyond that is a
     * damaged header, not a reason to allocate for it */
    long here = ftell(s->fp);
    if (here >= 0 && fseek(s->fp, 0, SEEK_END) == 0) {
        long size = ftell(s->fp);
        if (fseek(s->fp, here, SEEK_SET) != 0) return cio_seterr(e, "%s: cannot seek", f->path);
        if (size >= 0 && n > (size - here) / 4 + 1)
            return cio_seterr(e, "%s:%lld: npes %lld, but the file has room for at most %ld task entries (truncated, "
                                 "or a damaged header?)", f->path, (long long)s->tok_line, (long long)n,
                              (size - here) / 4 + 1);
    }
    if (expect_word(f, s, "ndims", e) || next_int(f, s, "the number of dimensions", &d, e)) return -1;
    if (d < 1 || d > CIO_MAX_DIMS)
        return cio_seterr(e, "%s:%lld: ndims %lld: expected 1 to %d dimensions", f->path, (long long)s->tok_line,
                          (long long)d, CIO_MAX_DIMS);
    int64_t g[CIO_MAX_DIMS], prod = 1, first_line = 0;
    for (int i = 0; i < d; i++) {
        char what[64];
        snprintf(what, sizeof what, "dimension length %d of %lld", i + 1, (long long)d);
        if (next_int(f, s, what, &g[i], e)) return -1;
        if (i == 0) first_line = s->tok_line;
        if (g[i] < 1 && s->tok_line != first_line)   /* PIO writes the lengths on one line */
            return cio_seterr(e, "%s:%lld: dimension length %d of %lld is %lld, read from the line after the lengths: "
                                 "ndims %lld, but line %lld holds %d dimension lengths", f->path,
                              (long long)s->tok_line, i + 1, (long long)d, (long long)g[i], (long long)d,
                              (long long)first_line, i);
        if (g[i] < 1)
            return cio_seterr(e, "%s:%lld: dimension length %d is %lld: expected a positive length", f->path,
                              (long long)s->tok_line, i + 1, (long long)g[i]);
        if (prod > INT64_MAX / 4 / g[i])
            return cio_seterr(e, "%s:%lld: the dimension lengths multiply beyond 2^62 elements", f->path,
                              (long long)s->tok_line);
        prod *= g[i];
    }
    f->ndecomps = 1;
    f->ntasks = n;
    f->desc[0].ndims = (int)d;
    /* the file does not say its order (it depends on the writer): the option does */
    for (int i = 0; i < d; i++) f->desc[0].dims[i] = f->opts.text_c_order ? g[i] : g[d - 1 - i];
    s->elems = prod;
    s->next_task = 0;
    s->data_pos = ftell(s->fp);
    s->data_line = s->line;
    return 0;
}

/* Read one task's id, length and map into p (or skip it when p is NULL). */
static int text_task(dmap_file *f, text_state *s, dmap_part *p, cio_err *e)
{
    int64_t t = s->next_task, id, len;
    char what[96];
    snprintf(what, sizeof what, "the id of task %lld (of npes %lld)", (long long)t, (long long)f->ntasks);
    if (next_int(f, s, what, &id, e)) return -1;
    if (id != t && t > 0)   /* a map length that is not its entries' count shifts every token after it */
        return cio_seterr(e, "%s:%lld: task id %lld where task %lld was expected (ids run 0 .. npes-1 in order; or "
                             "task %lld's map length, %lld at line %lld, is not the number of its entries)", f->path,
                          (long long)s->tok_line, (long long)id, (long long)t, (long long)t - 1, (long long)s->last_len,
                          (long long)s->last_len_line);
    if (id != t)
        return cio_seterr(e, "%s:%lld: task id %lld where task %lld was expected (ids run 0 .. npes-1 in order)",
                          f->path, (long long)s->tok_line, (long long)id, (long long)t);
    snprintf(what, sizeof what, "the map length of task %lld", (long long)t);
    if (next_int(f, s, what, &len, e)) return -1;
    if (len < 0)
        return cio_seterr(e, "%s:%lld: task %lld has map length %lld: expected 0 or more", f->path,
                          (long long)s->tok_line, (long long)t, (long long)len);
    s->last_len = len;
    s->last_len_line = s->tok_line;
    for (int64_t i = 0; i < len; i++) {
        int64_t v;
        snprintf(what, sizeof what, "entry %lld of %lld of task %lld's map", (long long)i + 1, (long long)len,
                 (long long)t);
        if (next_int(f, s, what, &v, e)) return -1;
        if (v > s->elems) {
            char dims[128];
            return cio_seterr(e, "%s:%lld: task %lld's entry %lld is %lld, beyond the array (%s = %lld elements)",
                              f->path, (long long)s->tok_line, (long long)t, (long long)i + 1, (long long)v,
                              dmap_dims_str(&f->desc[0], dims, sizeof dims), (long long)s->elems);
        }
        if (p) dmap_part_add(p, t, dmap_from_one_based(v));
    }
    s->next_task++;
    return 0;
}

/* After the last task: what follows is a trailer (PIO's blank line and stack
 * trace, SCORPIO's ioid line), never a number, which would be the id of a task
 * the header's npes leaves out (its map would be dropped without a word). */
static int text_after_last(dmap_file *f, text_state *s, cio_err *e)
{
    char tok[64];
    if (next_tok(s, tok, sizeof tok) != 0) return 0;
    char *end;
    errno = 0;
    (void)strtoll(tok, &end, 10);
    if (end == tok || *end) return 0;
    return cio_seterr(e, "%s:%lld: \"%s\" follows the last task's map where the file should end (or PIO's trace, "
                         "SCORPIO's ioid line begin): the header's npes %lld leaves out a task, or the last task's map "
                         "length is too small", f->path, (long long)s->tok_line, tok, (long long)f->ntasks);
}

static int text_read(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e)
{
    text_state *s = f->impl;
    (void)k;
    if (task0 < s->next_task) {   /* back to the first task */
        if (fseek(s->fp, s->data_pos, SEEK_SET) != 0) return cio_seterr(e, "%s: cannot seek", f->path);
        s->line = s->data_line;
        s->next_task = 0;
    }
    while (s->next_task < task0)
        if (text_task(f, s, NULL, e)) return -1;
    while (s->next_task < task0 + ntasks)
        if (text_task(f, s, p, e)) return -1;
    return s->next_task == f->ntasks ? text_after_last(f, s, e) : 0;
}

static void text_close(dmap_file *f)
{
    text_state *s = f->impl;
    if (s && s->fp) fclose(s->fp);
    cio_free(s);
    f->impl = NULL;
}

int dmap_text_open(dmap_file *f, cio_err *e)
{
    text_state *s = cio_calloc(1, sizeof *s);
    f->impl = s;
    f->close = text_close;
    f->read = text_read;
    f->fmt = DMAP_PIO_TEXT;
    s->fp = fopen(f->path, "r");
    if (!s->fp) return cio_seterr(e, "%s: cannot open the decomposition file: %s", f->path, strerror(errno));
    return text_header(f, s, e);
}

/* ---- writer ---- */

int dmap_write_text(const char *path, const dmap_desc *d, int c_order, int64_t ntasks, dmap_task_fn fn, void *ctx,
                    cio_err *e)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return cio_seterr(e, "%s: cannot create the file: %s", path, strerror(errno));
    fprintf(fp, "version 2001 npes %lld ndims %d \n", (long long)ntasks, d->ndims);
    for (int i = 0; i < d->ndims; i++) fprintf(fp, "%lld ", (long long)d->dims[c_order ? i : d->ndims - 1 - i]);
    fputc('\n', fp);
    int rc = 0;
    for (int64_t t = 0; t < ntasks && rc == 0 && !ferror(fp); t++) {
        int64_t *m = NULL;
        int64_t n = fn(ctx, 0, t, &m, e);
        if (n < 0) rc = -1;
        else fprintf(fp, "%lld %lld\n", (long long)t, (long long)n);
        for (int64_t i = 0; i < n; i++) fprintf(fp, "%lld ", (long long)(m[i] < 0 ? 0 : m[i] + 1));
        if (n >= 0) fputc('\n', fp);
        cio_free(m);
    }
    if (rc == 0) fputc('\n', fp);
    errno = 0;
    int bad = ferror(fp), cerr = fclose(fp) != 0 ? errno : 0;
    if (rc == 0 && (bad || cerr))
        rc = cio_seterr(e, "%s: write failed: %s", path, strerror(cerr ? cerr : errno ? errno : EIO));
    if (rc != 0) dmap_drop_incomplete(path, e);
    return rc;
}
