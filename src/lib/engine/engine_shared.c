/* What the engine's files share (engine_int.h): the failure that stops every
 * rank, the data buffer pool, the file registry and the files this rank created. */
#include "config.h"
#include "engine/engine_int.h"
#include "drivers/io_util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- errors */
/* The library's words name the system's refusal (a permission, a read-only file
 * system, no such file): what the file's first bytes look like is then beside
 * the point (a readable file opened for writing is not "damaged"). */
static int refused_by_system(const char *said)
{
    const int errs[] = {EACCES, EPERM, EROFS, ENOENT, EISDIR};
    for (size_t i = 0; i < sizeof errs / sizeof *errs; i++)
        if (strstr(said, strerror(errs[i]))) return 1;
    return strstr(said, "Access failure") != NULL;     /* PnetCDF's NC_EACCESS */
}

CIO_NORETURN void eng_fail(cio_file *f, const char *verb)
{
    char why[256] = "";
    const cio_driver *d = f->e->cfg.drv;
    if (strcmp(verb, "open") == 0 && d->open_diagnosis && !refused_by_system(f->df.err))
        d->open_diagnosis(f->path, why, sizeof why);
    cio_die("%s driver: %s failed on %s: %s%s%s", f->e->cfg.drv->name, verb, f->path,
            f->df.err[0] ? f->df.err : "(no message from the driver)", why,
            f->defined ? " -- the file is incomplete" : "");
}

/* ---------------------------------------------------------------- data buffers */
/* Write buffers are reused rather than freed: a fresh large allocation costs a
 * page fault per page at first touch, which made filling a new buffer several
 * times slower than filling a used one, and that cost would land in every
 * driver's run as overhead.  The pool holds at most what was in use at once. */
void *eng_buf_get(cio_engine *e, size_t n)
{
    int best = -1;
    for (int i = 0; i < e->npool; i++) {
        size_t sz = cio_msize(e->pool[i]);
        if (sz >= n && sz <= 2 * n + 4096 && (best < 0 || sz < cio_msize(e->pool[best]))) best = i;
    }
    if (best < 0) return cio_malloc(n ? n : 1);
    void *p = e->pool[best];
    e->pool[best] = e->pool[--e->npool];
    return p;
}

void eng_buf_put(cio_engine *e, void *p)
{
    if (!p) return;
    if (e->npool == (int)(sizeof e->pool / sizeof *e->pool)) {
        int small = 0;
        for (int i = 1; i < e->npool; i++)
            if (cio_msize(e->pool[i]) < cio_msize(e->pool[small])) small = i;
        if (cio_msize(e->pool[small]) >= cio_msize(p)) {
            cio_free(p);
            return;
        }
        cio_free(e->pool[small]);
        e->pool[small] = e->pool[--e->npool];
    }
    e->pool[e->npool++] = p;
}

/* ---------------------------------------------------------------- registry */
int eng_registry_entry(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int reset)
{
    if (!e->cfg.remember) return -1;
    int i;
    for (i = 0; i < e->nreg; i++)
        if (strcmp(e->reg[i].path, path) == 0) break;
    if (i == e->nreg) {
        if (e->nreg == e->regcap) {
            e->regcap = e->regcap ? 2 * e->regcap : 16;
            e->reg = cio_realloc(e->reg, (size_t)e->regcap * sizeof *e->reg);
        }
        memset(&e->reg[i], 0, sizeof e->reg[i]);
        e->reg[i].path = cio_strdup(path);
        e->nreg++;
        reset = 1;
    }
    reg_entry *r = &e->reg[i];
    if (r->s != s) {
        cio_schema_ref(s);
        cio_schema_free(r->s);
        r->s = s;
        cio_free(r->nrec);
        r->nrec = NULL;
        reset = 1;
    }
    r->comm = comm;
    if (reset) {
        cio_free(r->nrec);
        r->nrec = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *r->nrec);
        r->event = e->nevents > 0 ? e->nevents - 1 : 0;
    }
    return i;
}

/* ---------------------------------------------------------------- created files */
void eng_note_created(cio_engine *e, const char *path)
{
    if (!e->first_path) e->first_path = cio_strdup(path);
    for (int i = 0; i < e->ncreated; i++)
        if (strcmp(e->created[i], path) == 0) return;
    if (e->ncreated == e->createdcap) {
        e->createdcap = e->createdcap ? 2 * e->createdcap : 16;
        e->created = cio_realloc(e->created, (size_t)e->createdcap * sizeof *e->created);
    }
    e->created[e->ncreated++] = cio_strdup(path);
}
